from agents import function_tool


@function_tool(needs_approval=True)
def refund_order(order_id: str, amount_cents: int) -> str:
    """Refund part or all of an order."""
    return f"refunded {amount_cents} on {order_id}"


@function_tool
def order_status(order_id: str) -> str:
    """Look up where an order is."""
    return "shipped"
