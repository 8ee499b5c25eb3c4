from __future__ import annotations

from google.adk.agents import LlmAgent
from google.adk.tools.mcp_tool import McpToolset, StdioConnectionParams
from mcp import StdioServerParameters

SHARED_FOLDER = "/srv/shared"

files = McpToolset(
    connection_params=StdioConnectionParams(
        server_params=StdioServerParameters(
            command="npx",
            args=["-y", "@modelcontextprotocol/server-filesystem", SHARED_FOLDER],
        ),
        timeout=30,
    ),
    tool_filter=["read_file", "write_file"],
    require_confirmation=True,
)

root_agent = LlmAgent(
    name="file_clerk",
    model="gemini-2.5-flash",
    instruction="Read and update the team's shared notes when asked; never delete anything.",
    tools=[files],
)
