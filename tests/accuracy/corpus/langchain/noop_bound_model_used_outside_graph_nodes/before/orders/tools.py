from langchain_core.tools import tool


@tool
def lookup_order(order_id: str) -> dict:
    """Look up an order by its id."""
    return {"id": order_id, "status": "shipped"}


@tool
def cancel_order(order_id: str, reason: str) -> str:
    """Cancel an order that has not shipped yet."""
    return f"cancelled {order_id}"
