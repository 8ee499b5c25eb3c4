"""Low-level MCP server that fetches pages."""

from typing import Annotated

import mcp.types as types
from mcp.server.lowlevel import Server
from pydantic import BaseModel, Field


class FetchArgs(BaseModel):
    url: str
    raw: Annotated[bool, Field(default=True, description="Get the HTML of the page, unsimplified.")]


server = Server("pagefetch")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(
            name="fetch",
            description="Fetch a page and return it as markdown.",
            inputSchema=FetchArgs.model_json_schema(),
            annotations=types.ToolAnnotations(readOnlyHint=True, openWorldHint=True),
        )
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    args = FetchArgs.model_validate(arguments)
    return [types.TextContent(type="text", text=f"fetched {args.url}")]
