from agents import function_tool

APPROVE_REFUNDS = True
REFUND_TIER = "manual"


@function_tool(needs_approval=APPROVE_REFUNDS and REFUND_TIER == "manual")
def refund_order(order_id: str, amount: float) -> str:
    """Refund part of an order to the customer's card."""
    return f"refunded {amount} on {order_id}"


@function_tool(needs_approval=not False or UNKNOWN_FLAG)
def cancel_order(order_id: str) -> str:
    """Cancel an order that has not shipped."""
    return f"cancelled {order_id}"
