"""Document store MCP server."""

from __future__ import annotations

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("Docs")

DEFAULT_HINTS = {"readOnlyHint": False, "openWorldHint": False}

LOOKUP_HINTS = {"title": "Find documents"}
LOOKUP_HINTS.update(DEFAULT_HINTS)
LOOKUP_HINTS["readOnlyHint"] = True


@mcp.tool(annotations=LOOKUP_HINTS)
def find_documents(query: str) -> list[str]:
    """Find documents whose title matches the query."""
    return []
