from agents import Agent

from shop.triage import BASE_TOOLS

support_agent = Agent(
    name="Support",
    instructions="Answer questions about orders.",
    tools=BASE_TOOLS,
    model="gpt-4.1",
)
