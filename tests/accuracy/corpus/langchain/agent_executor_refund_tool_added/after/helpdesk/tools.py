from langchain_core.tools import tool


@tool
def lookup_order(order_id: str) -> str:
    """Return the status and items of an order."""
    return f"order {order_id}: shipped"


@tool
def issue_refund(order_id: str, amount: float) -> str:
    """Refund part or all of an order to the customer's card."""
    return f"refunded {amount} on order {order_id}"
