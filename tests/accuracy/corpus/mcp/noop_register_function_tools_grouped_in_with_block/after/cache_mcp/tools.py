"""Cache inspection tools, registered on the server handed in."""

import logging

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

from cache_mcp.timing import timed

log = logging.getLogger(__name__)


def register(mcp: FastMCP) -> None:
    with timed("registering cache tools"):

        @mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
        def cache_stats(region: str) -> dict:
            """Hit rate and size of the cache in a region."""
            return {}

        purge = mcp.tool(annotations=ToolAnnotations(destructiveHint=True))
        purge(purge_region)


def purge_region(region: str) -> int:
    """Drop every cached object of a region; returns how many were dropped."""
    return 0
