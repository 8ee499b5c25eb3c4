from mcp.server.fastmcp import FastMCP

mcp = FastMCP("files")


@mcp.tool(annotations={"readOnlyHint": True})
def read_file(path: str) -> str:
    """Read a file."""
    return open(path).read()
