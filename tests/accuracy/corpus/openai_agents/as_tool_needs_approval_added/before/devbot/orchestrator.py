from __future__ import annotations

from agents import Agent

from devbot.agent import repo_agent

orchestrator = Agent(
    name="Orchestrator",
    instructions="Plan the work and ask the repo helper for facts about the code.",
    tools=[
        repo_agent.as_tool(
            tool_name="ask_repo_helper",
            tool_description="Ask a question about the repository.",
        )
    ],
    model="gpt-5",
)
