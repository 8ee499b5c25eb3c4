"""Notes MCP server, built by a factory so tests can make their own."""

from __future__ import annotations

from mcp.server.fastmcp import FastMCP


def build_server(name: str = "Notes") -> FastMCP:
    return FastMCP(name, instructions="Personal notes.")


mcp = build_server()


@mcp.tool()
def add_note(text: str) -> str:
    """Store a note."""
    return "n-1"


if __name__ == "__main__":
    mcp.run()
