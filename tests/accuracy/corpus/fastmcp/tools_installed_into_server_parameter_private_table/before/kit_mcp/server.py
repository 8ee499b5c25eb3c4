from fastmcp import FastMCP

server = FastMCP("kit")


@server.tool(annotations={"readOnlyHint": True})
def version() -> str:
    """The kit's version."""
    return "1.0"


if __name__ == "__main__":
    server.run()
