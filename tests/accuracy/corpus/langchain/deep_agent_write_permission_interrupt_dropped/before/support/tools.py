def lookup_order(order_id: str) -> str:
    """Look an order up by its id."""
    return f"order {order_id}"


def refund_order(order_id: str, amount: float) -> str:
    """Refund part or all of an order."""
    return f"refunded {amount} on {order_id}"
