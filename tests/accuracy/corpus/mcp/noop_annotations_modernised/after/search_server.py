from __future__ import annotations

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("search")


@mcp.tool(annotations={"readOnlyHint": True})
def search(query: str, tags: list[str] | None = None, limit: None | int = None) -> dict[str, list[str]]:
    """Search the index."""
    return {}


@mcp.tool(annotations={"readOnlyHint": True})
def suggest(prefix: str | None = None) -> list[str]:
    """Suggest completions."""
    return []
