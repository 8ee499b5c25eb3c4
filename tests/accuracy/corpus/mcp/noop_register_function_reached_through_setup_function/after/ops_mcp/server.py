"""The operations MCP server."""

from mcp.server.fastmcp import FastMCP

from ops_mcp.tools import register


def setup(server: FastMCP) -> FastMCP:
    """Everything the server offers, registered in one place."""
    register(server)
    return server


ops = FastMCP("ops")
setup(ops)

if __name__ == "__main__":
    ops.run()
