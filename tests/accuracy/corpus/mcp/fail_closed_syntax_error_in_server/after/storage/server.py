from mcp.server.fastmcp import FastMCP

mcp = FastMCP("storage")


@mcp.tool(annotations={"readOnlyHint": True})
def list_buckets() -> list[str]:
    """List the storage buckets."""
    return []


@mcp.tool()
def purge_bucket(bucket: str) -> str
    """Delete every object in a bucket."""
    return bucket
