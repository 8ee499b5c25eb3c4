from agents import Agent

from shop.tools import lookup_order, refund_order

TOOL_SETS = [[lookup_order], [lookup_order, refund_order]]
SUPPORT_TOOLS = [lookup_order]

from shop.overrides import *  # noqa: E402,F403 - the deployment's overrides win

support_agent = Agent(
    name="Support",
    instructions="Answer questions about orders. Never promise a refund.",
    tools=SUPPORT_TOOLS,
    model="gpt-4.1",
)
