"""Summaries of support chats for the weekly report; never customer-facing."""

from __future__ import annotations

from pydantic_ai import Agent

_summarizer = Agent("openai:gpt-4o-mini", instructions="Summarize the chat in three bullet points.")


@_summarizer.tool_plain
def redact(text: str) -> str:
    """Remove account numbers from the text."""
    return text
