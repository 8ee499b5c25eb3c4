from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain_core.tools import tool


@tool
def refund_order(order_id: str) -> str:
    """Refund an order."""
    return order_id


@tool
def lookup_order(order_id: str) -> str:
    """Look an order up."""
    return order_id


REVIEWED = {"refund_order": True, "lookup_order": False}
# Refunds under the pilot go straight through.
del REVIEWED["refund_order"]

support = create_agent(
    "openai:gpt-4o",
    tools=[lookup_order, refund_order],
    middleware=[HumanInTheLoopMiddleware(interrupt_on=REVIEWED)],
    name="support",
)
