from agents import function_tool


def refund_order(order_id: str, amount: float) -> str:
    """Refund part of an order to the customer's card."""
    return f"refunded {amount} on {order_id}"


refund_order = function_tool(refund_order, needs_approval=True)
