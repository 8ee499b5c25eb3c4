from fastmcp import FastMCP

from kit_mcp.plugins import discovered

server = FastMCP("kit")


@server.tool(annotations={"readOnlyHint": True})
def version() -> str:
    """The kit's version."""
    return "1.0"


def install(mcp: FastMCP) -> None:
    """Expose every discovered plugin as a tool, replacing what the server had."""
    mcp._tool_manager._tools = {}
    for plugin in discovered():
        mcp._tool_manager._tools[plugin.name] = plugin


install(server)

if __name__ == "__main__":
    server.run()
