"""Inventory MCP server."""

from __future__ import annotations

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

from inventory import tools

mcp = FastMCP("Inventory")
read_only = mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
for fn in [tools.stock_level]:
    read_only(fn)
register = mcp.tool
[register()(fn) for fn in (tools.reserve,)]


if __name__ == "__main__":
    mcp.run()
