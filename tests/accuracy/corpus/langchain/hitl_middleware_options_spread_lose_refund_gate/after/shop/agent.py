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


# Options shared by every agent of the shop: which tool calls wait for a reviewer.
REVIEW_OPTIONS = {
    "interrupt_on": {"refund_order": True, "lookup_order": False},
    "description_prefix": "Needs review",
}
REVIEW_OPTIONS["interrupt_on"] = {"lookup_order": False}

support = create_agent(
    "openai:gpt-4o",
    tools=[lookup_order, refund_order],
    middleware=[HumanInTheLoopMiddleware(**REVIEW_OPTIONS)],
    name="support",
)
