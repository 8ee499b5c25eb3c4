from agents import Agent

from support.faq import bot

escalation = Agent(
    name="bot",
    instructions="Escalate billing problems to a human.",
    model="gpt-4.1-mini",
)

triage = Agent(name="triage", instructions="Route the user.", handoffs=[bot])
