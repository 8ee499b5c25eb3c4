from agents import function_tool


@function_tool
def lookup_order(order_id: str) -> str:
    """Look up an order by its id."""
    return f"order {order_id}: shipped"


@function_tool(needs_approval=True)
def cancel_order(order_id: str) -> str:
    """Cancel an order that has not shipped yet."""
    return f"order {order_id}: cancelled"
