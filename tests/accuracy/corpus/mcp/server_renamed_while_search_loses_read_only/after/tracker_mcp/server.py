from __future__ import annotations

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("Team Issue Tracker", instructions="Search, file and triage issues in the team tracker.")
