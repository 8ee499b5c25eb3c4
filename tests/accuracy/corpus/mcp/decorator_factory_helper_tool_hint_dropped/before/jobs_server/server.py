"""Jobs MCP server."""

from mcp.server.fastmcp import FastMCP

from jobs_server.jobs import JobTools

mcp = FastMCP("jobs")
JobTools(mcp)

if __name__ == "__main__":
    mcp.run()
