from __future__ import annotations

from langchain.agents import create_agent

from travel.prompts import PERSONA, RULES
from travel.tools import search_flights

agent = create_agent(
    "openai:gpt-4.1",
    tools=[search_flights],
    system_prompt=f"{PERSONA}\n\nRules:\n{RULES}",
)
