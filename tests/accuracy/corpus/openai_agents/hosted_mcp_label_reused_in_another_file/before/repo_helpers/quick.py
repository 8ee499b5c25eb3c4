"""A quick assistant for one repository."""

from __future__ import annotations

from agents import Agent, HostedMCPTool

quick_assistant = Agent(
    name="Quick repo assistant",
    instructions="You can use the hosted MCP server to inspect the repository.",
    tools=[
        HostedMCPTool(
            tool_config={
                "type": "mcp",
                "server_label": "gitmcp",
                "server_url": "https://gitmcp.io/openai/codex",
                "require_approval": "never",
            }
        )
    ],
)
