from agents import Agent, function_tool


@function_tool
def lookup_order(order_id: str) -> str:
    """Look up an order by its id."""
    return f"order {order_id}: shipped"


support = Agent(
    name="Support",
    instructions="Answer questions about orders.",
    tools=[lookup_order],
)
