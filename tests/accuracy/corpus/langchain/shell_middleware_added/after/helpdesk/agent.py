from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware, ShellToolMiddleware

from helpdesk.tools import close_ticket, search_tickets

helpdesk = create_agent(
    "openai:gpt-4.1",
    tools=[search_tickets, close_ticket],
    system_prompt="You triage support tickets.",
    middleware=[HumanInTheLoopMiddleware(interrupt_on={"close_ticket": True}), ShellToolMiddleware()],
    name="helpdesk",
)
