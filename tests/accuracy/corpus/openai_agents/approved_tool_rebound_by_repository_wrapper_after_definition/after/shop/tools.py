from agents import function_tool

from shop.audit import audited


@function_tool(needs_approval=True)
def refund_order(order_id: str, amount: float) -> str:
    """Refund part of an order to the customer's card."""
    return f"refunded {amount} on {order_id}"


# The name now holds whatever the wrapper makes of the approved tool.
refund_order = audited(refund_order)
