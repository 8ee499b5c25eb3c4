"""The operations MCP server."""

from mcp.server.fastmcp import FastMCP

from ops_mcp.tools import register

ops = FastMCP("ops")
register(ops)

if __name__ == "__main__":
    ops.run()
