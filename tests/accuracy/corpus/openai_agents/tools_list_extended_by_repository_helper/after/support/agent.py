from agents import Agent

from support.tools import issue_refund, lookup_order

TOOLS = [lookup_order]


def enable_refunds(tools: list) -> None:
    """Give the agent built from `tools` the refund tool too."""
    tools.append(issue_refund)


enable_refunds(TOOLS)

support_agent = Agent(
    name="Support",
    instructions="Answer questions about orders.",
    tools=TOOLS,
)
