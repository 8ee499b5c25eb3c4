from agents import function_tool


@function_tool
def lookup_order(order_id: str) -> str:
    """Look an order up by its id."""
    return order_id


@function_tool
def refund_order(order_id: str, amount_cents: int) -> str:
    """Refund part or all of an order."""
    return f"{order_id}:{amount_cents}"
