"""The policy sub-agent."""

from __future__ import annotations

from google.adk.agents import Agent

policy_agent = Agent(
    name="policy_agent",
    model="gemini-2.0-flash",
    description="Answers questions about the travel and expense policy.",
    instruction="Answer questions about the expense policy. Quote the policy section you rely on.",
)
