"""Cache inspection tools, registered on the server handed in."""

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations


def register(mcp: FastMCP) -> None:
    @mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
    def cache_stats(region: str) -> dict:
        """Hit rate and size of the cache in a region."""
        return {}

    @mcp.tool(annotations=ToolAnnotations(destructiveHint=True))
    def purge_region(region: str) -> int:
        """Drop every cached object of a region; returns how many were dropped."""
        return 0
