
from __future__ import annotations

from agents import Agent, WebSearchTool
from agents.mcp import MCPServerStdio

from devbot.tools import read_file

FILESYSTEM = {
    "name": "Filesystem",
    "params": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]},
    "require_approval": "always",
}

filesystem = MCPServerStdio(**FILESYSTEM)

repo_agent = Agent(
    name="Repo Helper",
    instructions="Answer questions about this repository. Read files before answering.",
    tools=[read_file, WebSearchTool()],
    mcp_servers=[filesystem],
    model="gpt-5",
)
