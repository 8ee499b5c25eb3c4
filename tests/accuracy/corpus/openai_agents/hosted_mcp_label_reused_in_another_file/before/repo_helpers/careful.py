"""An assistant that asks before it calls the wiki server's tools, except for reading."""

from __future__ import annotations

from agents import Agent, HostedMCPTool

careful_assistant = Agent(
    name="Careful repo assistant",
    instructions="Answer questions about the repository; explain what you looked up.",
    tools=[
        HostedMCPTool(
            tool_config={
                "type": "mcp",
                "server_label": "deepwiki",
                "server_url": "https://mcp.deepwiki.com/mcp",
                "require_approval": {"never": {"tool_names": ["read_wiki_structure"]}},
            }
        )
    ],
)
