
from __future__ import annotations

from pydantic_ai import Agent, Tool

from research.tools import fetch_page, notes, search_web

tools = [Tool(search_web, takes_ctx=False), Tool(fetch_page, takes_ctx=False)]

researcher = Agent(
    "openai:gpt-4.1",
    deps_type=str,
    name="researcher",
    instructions="Research the question, cite every source, and save a note with your findings.",
    tools=tools,
    toolsets=[notes.defer_loading()],
)
