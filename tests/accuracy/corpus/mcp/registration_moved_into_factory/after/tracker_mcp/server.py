from __future__ import annotations

from mcp.server.fastmcp import FastMCP


def create_server() -> FastMCP:
    mcp = FastMCP("issue-tracker", instructions="Search, file and triage issues in the team tracker.")
    from tracker_mcp.tools import register

    register(mcp)
    return mcp
