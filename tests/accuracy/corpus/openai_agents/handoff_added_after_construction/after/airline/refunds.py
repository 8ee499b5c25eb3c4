"""Refund desk: a specialist the triage agent can hand off to."""

from __future__ import annotations

from agents import Agent, function_tool

from airline import reservations
from airline.context import AirlineAgentContext


@function_tool(needs_approval=True)
def request_refund(confirmation_number: str, reason: str) -> str:
    """File a refund request for a cancelled or delayed flight."""
    return reservations.cancel(confirmation_number)


refund_agent = Agent[AirlineAgentContext](
    name="Refund Agent",
    handoff_description="Handles refunds for cancelled or delayed flights.",
    instructions="Collect the confirmation number and reason, then file the refund request.",
    tools=[request_refund],
    model="gpt-4.1",
)
