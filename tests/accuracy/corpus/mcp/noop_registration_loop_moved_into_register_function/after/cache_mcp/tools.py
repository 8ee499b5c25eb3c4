"""Cache inspection tools, registered on the server handed in."""

from mcp.server.fastmcp import FastMCP


def cache_stats(region: str) -> dict:
    """Hit rate and size of the cache in a region."""
    return {}


def purge_region(region: str) -> int:
    """Drop every cached object of a region; returns how many were dropped."""
    return 0


def register(server: FastMCP) -> None:
    for tool in (cache_stats, purge_region):
        server.add_tool(tool)
