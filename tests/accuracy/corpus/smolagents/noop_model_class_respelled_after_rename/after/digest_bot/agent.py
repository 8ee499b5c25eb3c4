from __future__ import annotations

from smolagents import InferenceClientModel, ToolCallingAgent

from digest_bot.tools import open_tickets

digest_agent = ToolCallingAgent(
    tools=[open_tickets],
    model=InferenceClientModel(provider="together"),
    name="digest",
    description="Writes the daily ticket digest.",
)
