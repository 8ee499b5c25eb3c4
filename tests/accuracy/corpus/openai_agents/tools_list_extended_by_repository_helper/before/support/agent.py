from agents import Agent

from support.tools import issue_refund, lookup_order

TOOLS = [lookup_order]

support_agent = Agent(
    name="Support",
    instructions="Answer questions about orders.",
    tools=TOOLS,
)
