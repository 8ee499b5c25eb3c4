"""Read-only reports over the inventory."""

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

from .server import STOCK

reports = MCPServer("inventory-reports")


@reports.tool(description="Items that are out of stock.", annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True))
def out_of_stock() -> list[str]:
    return sorted(name for name, units in STOCK.items() if units == 0)
