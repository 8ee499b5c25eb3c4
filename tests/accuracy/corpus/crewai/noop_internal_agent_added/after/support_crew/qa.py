"""Offline QA of past replies (run by hand)."""

from crewai import Agent

from support_crew.tools import lookup_order

_reviewer = Agent(
    role="Reply Reviewer",
    goal="Flag replies that contradict the order data",
    backstory="You audit support replies.",
    tools=[lookup_order],
)
