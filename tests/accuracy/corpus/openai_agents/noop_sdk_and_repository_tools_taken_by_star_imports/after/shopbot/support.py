from agents import *  # noqa: F403

from shopbot.tools import *  # noqa: F403

support = Agent(
    name="Support",
    instructions="Answer questions about orders; cancel one only when the customer asks.",
    tools=[lookup_order, cancel_order],
)
