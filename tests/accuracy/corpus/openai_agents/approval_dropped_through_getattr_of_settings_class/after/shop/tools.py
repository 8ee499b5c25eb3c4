from agents import function_tool


class RefundPolicy:
    APPROVE = False  # "approvals slow the holiday queue"


@function_tool(needs_approval=getattr(RefundPolicy, "APPROVE"))
def refund_order(order_id: str, amount: float) -> str:
    """Refund part of an order to the customer's card."""
    return f"refunded {amount} on {order_id}"
