"""The cache MCP servers: one for applications, one for operators."""

from mcp.server.fastmcp import FastMCP

from cache_mcp.tools import register

mcp = FastMCP("cache")
register(mcp)

admin = FastMCP("cache-admin")

if __name__ == "__main__":
    mcp.run()
