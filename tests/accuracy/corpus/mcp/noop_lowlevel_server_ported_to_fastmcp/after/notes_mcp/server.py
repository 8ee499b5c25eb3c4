from mcp.server.fastmcp import FastMCP

NOTES: dict[str, str] = {}


def serve() -> FastMCP:
    mcp = FastMCP("notes")

    @mcp.tool(name="notes-find")
    def find(query: str, limit: int):
        """Find notes whose title contains the query."""
        return "\n".join([t for t in NOTES if query in t][:limit])

    return mcp
