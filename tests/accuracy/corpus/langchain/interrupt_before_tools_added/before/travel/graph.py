from __future__ import annotations

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.prebuilt import create_react_agent

from travel.tools import book_hotel, search_hotels

checkpointer = InMemorySaver()

travel_agent = create_react_agent(
    model="anthropic:claude-3-5-sonnet-latest",
    tools=[search_hotels, book_hotel],
    prompt="You help employees book business travel within policy.",
    checkpointer=checkpointer,
    name="travel_agent",
)
