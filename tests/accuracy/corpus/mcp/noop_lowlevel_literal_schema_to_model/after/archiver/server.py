"""Low-level MCP server for the archive."""

import mcp.types as types
from mcp.server.lowlevel import Server

from archiver.models import ArchiveArgs

server = Server("archiver")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(
            name="archive",
            description="Move old files under a path to cold storage.",
            inputSchema=ArchiveArgs.model_json_schema(),
            annotations=types.ToolAnnotations(destructiveHint=True, idempotentHint=True, openWorldHint=False),
        )
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    args = ArchiveArgs.model_validate(arguments)
    return [types.TextContent(type="text", text=f"archived {args.path}")]
