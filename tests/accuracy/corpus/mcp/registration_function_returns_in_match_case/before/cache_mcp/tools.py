"""Cache tools, registered on the server handed in."""

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

from cache_mcp import settings
from cache_mcp.store import CACHE


def register(mcp: FastMCP) -> None:
    @mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
    def cache_stats(region: str) -> dict:
        """Hit rate and size of the cache in a region."""
        return CACHE.stats(region)

    @mcp.tool(annotations=ToolAnnotations(destructiveHint=True))
    def purge_region(region: str) -> int:
        """Drop every cached object of a region; returns how many were dropped."""
        return CACHE.purge(region)
