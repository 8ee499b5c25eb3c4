from agents import Agent

from shopbot.tools import cancel_order, lookup_order

support = Agent(
    name="Support",
    instructions="Answer questions about orders; cancel one only when the customer asks.",
    tools=[lookup_order, cancel_order],
)
