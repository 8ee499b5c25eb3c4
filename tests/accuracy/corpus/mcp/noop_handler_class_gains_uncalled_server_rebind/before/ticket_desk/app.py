"""The help desk's MCP server."""

from mcp.server.fastmcp import FastMCP

from ticket_desk.tools import TicketTools

desk = FastMCP("help-desk")
TicketTools(desk)

if __name__ == "__main__":
    desk.run()
