from __future__ import annotations

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("issue-tracker", instructions="Search, file and triage issues in the team tracker.")
