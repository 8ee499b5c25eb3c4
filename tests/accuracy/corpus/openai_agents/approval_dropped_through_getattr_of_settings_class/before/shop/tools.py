from agents import function_tool

APPROVE_REFUNDS = True


@function_tool(needs_approval=APPROVE_REFUNDS)
def refund_order(order_id: str, amount: float) -> str:
    """Refund part of an order to the customer's card."""
    return f"refunded {amount} on {order_id}"
