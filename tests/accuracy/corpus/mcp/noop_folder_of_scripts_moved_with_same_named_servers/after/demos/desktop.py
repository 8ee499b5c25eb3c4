"""A server listing the desktop, with the same demo tool. Run: python demos/desktop.py"""

from pathlib import Path

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("Demo")


@mcp.resource("dir://desktop")
def desktop() -> list[str]:
    """The files on the user's desktop."""
    return [str(p) for p in (Path.home() / "Desktop").iterdir()]


@mcp.tool()
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b
