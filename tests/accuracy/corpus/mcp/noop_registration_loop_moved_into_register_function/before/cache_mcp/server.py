"""The cache MCP server."""

from mcp.server.fastmcp import FastMCP

from cache_mcp.tools import cache_stats, purge_region

mcp = FastMCP("cache")
for tool in (cache_stats, purge_region):
    mcp.add_tool(tool)

if __name__ == "__main__":
    mcp.run()
