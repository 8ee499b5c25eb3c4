import os

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("files")


@mcp.tool(name=os.environ.get("READ_TOOL", "read_file"), annotations={"readOnlyHint": True})
def read(path: str) -> str:
    """Read a file from the workspace."""
    return path
