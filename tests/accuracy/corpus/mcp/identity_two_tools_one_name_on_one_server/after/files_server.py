from mcp.server.fastmcp import FastMCP

mcp = FastMCP("files")


@mcp.tool(annotations={"readOnlyHint": True})
def read_file(path: str) -> str:
    """Read a file."""
    return open(path).read()


@mcp.tool(name="read_file")
def read_file_raw(path: str, mode: str = "rb") -> bytes:
    """Read a file as bytes."""
    return open(path, mode).read()
