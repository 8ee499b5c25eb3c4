"""Low-level MCP server for the archive."""

import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("archiver")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(
            name="archive",
            description="Move old files under a path to cold storage.",
            inputSchema={
                "type": "object",
                "required": ["path"],
                "properties": {
                    "path": {"type": "string"},
                    "keep_days": {"type": "integer", "default": 30, "minimum": 1, "maximum": 365},
                },
            },
            annotations=types.ToolAnnotations(destructiveHint=True, idempotentHint=True, openWorldHint=False),
        )
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    return [types.TextContent(type="text", text=f"archived {arguments['path']}")]
