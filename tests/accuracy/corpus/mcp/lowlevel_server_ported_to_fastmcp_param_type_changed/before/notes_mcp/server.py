from mcp.server import Server
from mcp.types import TextContent, Tool

NOTES: dict[str, str] = {}


def serve() -> Server:
    server = Server("notes")

    @server.list_tools()
    async def list_tools() -> list[Tool]:
        return [
            Tool(
                name="notes-find",
                description="Find notes whose title contains the query.",
                inputSchema={
                    "type": "object",
                    "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
                    "required": ["query", "limit"],
                },
            ),
        ]

    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[TextContent]:
        titles = [t for t in NOTES if arguments["query"] in t][: arguments["limit"]]
        return [TextContent(type="text", text="\n".join(titles))]

    return server
