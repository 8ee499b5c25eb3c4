from agents import Agent, function_tool


@function_tool
def lookup_order(order_id: str) -> str:
    """Look an order up."""
    return order_id


support = Agent(name="support", instructions="Help customers with orders.", tools=[lookup_order])
