from __future__ import annotations

import os

from pydantic_ai import Agent

from triage.tools import queue_depth

MODEL = os.getenv("TRIAGE_MODEL", "anthropic:claude-sonnet-4-5")

triage_agent = Agent(
    MODEL,
    instructions="Route each ticket to the team with the shortest queue that can handle it.",
    tools=[queue_depth],
)
