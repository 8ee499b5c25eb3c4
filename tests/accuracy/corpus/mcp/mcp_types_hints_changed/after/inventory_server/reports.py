"""Read-only reports over the inventory."""

from mcp_types import ToolAnnotations

from mcp.server.mcpserver import MCPServer

from .server import STOCK

reports = MCPServer("inventory-reports")


@reports.tool(description="Items that are out of stock.", annotations=ToolAnnotations(idempotent_hint=True))
def out_of_stock() -> list[str]:
    return sorted(name for name, units in STOCK.items() if units == 0)
