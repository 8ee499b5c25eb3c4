"""The operations MCP server."""

from mcp.server.fastmcp import FastMCP

from ops_mcp.hub import server_for
from ops_mcp.tools import register

ops = FastMCP("ops")
register(ops)
register(server_for("platform"))

if __name__ == "__main__":
    ops.run()
