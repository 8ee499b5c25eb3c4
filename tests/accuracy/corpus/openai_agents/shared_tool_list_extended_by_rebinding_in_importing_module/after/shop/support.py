from agents import Agent

from shop.tools import refund_order
from shop.triage import BASE_TOOLS

BASE_TOOLS = BASE_TOOLS + [refund_order]

support_agent = Agent(
    name="Support",
    instructions="Answer questions about orders.",
    tools=BASE_TOOLS,
    model="gpt-4.1",
)
