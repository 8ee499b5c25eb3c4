from agents import function_tool

APPROVE_REFUNDS = True


@function_tool(needs_approval=APPROVE_REFUNDS)
def refund_order(order_id: str, amount: float) -> str:
    """Refund part of an order to the customer's card."""
    return f"refunded {amount} on {order_id}"


@function_tool(needs_approval=True)
def cancel_order(order_id: str) -> str:
    """Cancel an order that has not shipped."""
    return f"cancelled {order_id}"


@function_tool(needs_approval=True)
def reship_order(order_id: str) -> str:
    """Ship an order again at the shop's cost."""
    return f"reshipped {order_id}"
