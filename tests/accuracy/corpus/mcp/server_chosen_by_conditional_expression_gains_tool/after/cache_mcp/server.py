"""The cache MCP server and its tools."""

import os

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

from cache_mcp.store import CACHE

mcp = (
    FastMCP("cache-admin", instructions="Inspect and manage the regional object cache.")
    if os.environ.get("CACHE_MCP_ADMIN") == "1"
    else FastMCP("cache", instructions="Inspect the regional object cache.")
)


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def cache_stats(region: str) -> dict:
    """Hit rate and size of the cache in a region."""
    return CACHE.stats(region)


@mcp.tool()
def purge_region(region: str) -> int:
    """Drop every cached object of a region; returns how many were dropped."""
    return CACHE.purge(region)


if __name__ == "__main__":
    mcp.run()
