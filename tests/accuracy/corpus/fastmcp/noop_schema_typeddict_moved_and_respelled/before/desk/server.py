"""Ticket tools for the support desk."""

from __future__ import annotations

from fastmcp import FastMCP

from desk.types import TicketFilter
from desk.tracker import tracker

mcp = FastMCP("SupportDesk")


@mcp.tool(annotations={"readOnlyHint": True})
def search_tickets(filter: TicketFilter, limit: int = 20) -> list[dict]:
    """Tickets matching the filter, newest first."""
    return tracker.search(dict(filter), limit)


if __name__ == "__main__":
    mcp.run()
