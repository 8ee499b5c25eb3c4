from google.adk.agents import Agent
from google.adk.tools import FunctionTool


def refund_order(order_id: str, amount: float) -> str:
    """Refund part of an order to the customer's card."""
    return f"refunded {amount} on {order_id}"


def lookup_order(order_id: str) -> str:
    """Look an order up."""
    return order_id


refund_tool = FunctionTool(func=refund_order, require_confirmation=True)
root_agent = Agent(
    name="support",
    model="gemini-2.0-flash",
    instruction="Help customers with their orders.",
    tools=[lookup_order, refund_tool],
)

root_agent.tools.append(FunctionTool(func=refund_order))
