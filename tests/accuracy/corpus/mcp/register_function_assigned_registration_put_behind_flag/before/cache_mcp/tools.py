"""Cache inspection tools, registered on the server handed in."""

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations


def cache_stats(region: str) -> dict:
    """Hit rate and size of the cache in a region."""
    return {}


def purge_region(region: str) -> int:
    """Drop every cached object of a region; returns how many were dropped."""
    return 0


def register(mcp: FastMCP) -> list:
    registered = [mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))(cache_stats)]
    purge = mcp.tool(annotations=ToolAnnotations(destructiveHint=True))(purge_region)
    registered.append(purge)
    return registered
