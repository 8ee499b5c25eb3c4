"""The cache MCP server."""

from mcp.server.fastmcp import FastMCP

from cache_mcp.tools import register

mcp = FastMCP("cache")
register(mcp)

if __name__ == "__main__":
    mcp.run()
