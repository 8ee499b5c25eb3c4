from pydantic_ai import Tool


def issue_refund(payment_id: str, amount_cents: int) -> str:
    """Refund part or all of a captured payment."""
    return f"refund of {amount_cents} queued for {payment_id}"


def payment_status(payment_id: str) -> str:
    """Current status of a payment."""
    return "captured"


refund_tool = Tool(issue_refund, requires_approval=True)
