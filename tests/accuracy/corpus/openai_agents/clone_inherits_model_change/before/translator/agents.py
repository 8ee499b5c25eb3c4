from __future__ import annotations

from agents import Agent

base_agent = Agent(
    name="English agent",
    instructions="You only speak English.",
    model="gpt-4.1",
)

spanish_agent = base_agent.clone(name="Spanish agent", instructions="You only speak Spanish.")
french_agent = base_agent.clone(name="French agent", instructions="You only speak French.")

triage_agent = Agent(
    name="Triage agent",
    instructions="Handoff to the appropriate agent based on the language of the request.",
    handoffs=[base_agent, spanish_agent, french_agent],
    model="gpt-4.1",
)
