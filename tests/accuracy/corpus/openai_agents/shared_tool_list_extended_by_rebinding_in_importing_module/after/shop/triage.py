from agents import Agent

from shop.tools import lookup_order

BASE_TOOLS = [lookup_order]

triage_agent = Agent(
    name="Triage",
    instructions="Find the order the customer means, then hand over.",
    tools=BASE_TOOLS,
    model="gpt-4.1",
)
