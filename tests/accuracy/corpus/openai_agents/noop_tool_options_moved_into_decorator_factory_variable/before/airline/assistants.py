"""The agents and how they hand off to each other."""

from __future__ import annotations

from agents import Agent, handoff
from agents.extensions.handoff_prompt import RECOMMENDED_PROMPT_PREFIX

from airline.context import AirlineAgentContext
from airline.tools import cancel_booking, faq_lookup, update_seat

faq_agent = Agent[AirlineAgentContext](
    name="FAQ Agent",
    handoff_description="A helpful agent that can answer questions about the airline.",
    instructions=f"""{RECOMMENDED_PROMPT_PREFIX}
    You are an FAQ agent. Use the faq lookup tool to answer the question; do not rely on your own knowledge.""",
    tools=[faq_lookup],
    model="gpt-4.1",
)

seat_booking_agent = Agent[AirlineAgentContext](
    name="Seat Booking Agent",
    handoff_description="A helpful agent that can update a seat on a flight.",
    instructions=(
        "You are a seat booking agent. Ask for the confirmation number and the desired seat, then use the "
        "update seat tool. If the customer asks something unrelated, transfer back to the triage agent."
    ),
    tools=[update_seat, cancel_booking],
    model="gpt-4.1",
)

triage_agent = Agent[AirlineAgentContext](
    name="Triage Agent",
    handoff_description="A triage agent that can delegate a customer's request to the appropriate agent.",
    instructions="You are a helpful triaging agent. Delegate questions to the other agents.",
    handoffs=[faq_agent, handoff(agent=seat_booking_agent)],
    model="gpt-4.1",
)

faq_agent.handoffs.append(triage_agent)
seat_booking_agent.handoffs.append(triage_agent)
