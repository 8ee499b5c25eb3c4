"""Document store MCP server."""

from __future__ import annotations

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("Docs")

LOOKUP_HINTS = {"title": "Find documents", "readOnlyHint": True, "openWorldHint": False}


@mcp.tool(annotations=LOOKUP_HINTS)
def find_documents(query: str) -> list[str]:
    """Find documents whose title matches the query."""
    return []
