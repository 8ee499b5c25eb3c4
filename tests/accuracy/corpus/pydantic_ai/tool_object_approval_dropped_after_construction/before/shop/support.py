from pydantic_ai import Agent, Tool


def refund_order(order_id: str, amount: float) -> str:
    """Refund part of an order to the customer's card."""
    return f"refunded {amount} on {order_id}"


refund_tool = Tool(refund_order, requires_approval=True)
support = Agent("openai:gpt-4o", name="support", tools=[refund_tool])
