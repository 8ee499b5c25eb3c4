"""Inventory MCP server."""

from __future__ import annotations

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

from inventory import tools

mcp = FastMCP("Inventory")
mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))(tools.stock_level)
mcp.tool()(tools.reserve)


if __name__ == "__main__":
    mcp.run()
