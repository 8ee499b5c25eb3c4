"""Ticket tools bound to the desk's MCP server."""

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations


class TicketTools:
    """Keeps the server it is given and registers its bound methods as tools."""

    def __init__(self, server: FastMCP) -> None:
        self.server = server
        self.server.tool(name="list_tickets", annotations=ToolAnnotations(readOnlyHint=True))(self.list_tickets)
        self.server.tool(name="close_ticket")(self.close_ticket)

    def list_tickets(self, queue: str) -> list[str]:
        """List the open tickets of a queue."""
        return []

    def close_ticket(self, ticket_id: int, reason: str = "") -> bool:
        """Close a ticket for good."""
        return True
