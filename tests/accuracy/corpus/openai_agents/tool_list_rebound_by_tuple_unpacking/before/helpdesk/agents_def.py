from agents import Agent

from .tools import ACCOUNT_TOOLS, COMMON_TOOLS

it_agent = Agent(
    name="IT Helpdesk",
    instructions="Help employees with IT problems. Verify identity before account changes.",
    tools=[*COMMON_TOOLS, *ACCOUNT_TOOLS],
    model="gpt-4.1",
)
