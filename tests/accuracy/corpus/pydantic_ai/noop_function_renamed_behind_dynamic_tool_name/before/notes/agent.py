from __future__ import annotations

from pydantic_ai import Agent

from notes.settings import SEARCH_TOOL

notes_agent = Agent("openai:gpt-4o", name="notes", instructions="Answer from the user's notes.")


@notes_agent.tool_plain(name=SEARCH_TOOL)
def search(query: str) -> list[str]:
    """Search the user's notes."""
    return []
