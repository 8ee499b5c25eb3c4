from langchain_core.tools import tool


@tool
def lookup_order(order_id: str) -> str:
    """Return the status and items of an order."""
    return f"order {order_id}: shipped"
