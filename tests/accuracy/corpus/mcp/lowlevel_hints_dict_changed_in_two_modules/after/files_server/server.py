"""Low-level MCP server exposing a read-mostly view of a project directory."""

from __future__ import annotations

from pathlib import Path

import mcp.types as types
from mcp.server.lowlevel import Server

ROOT = Path.cwd()
server = Server("project-files")

READ_HINTS = {"readOnlyHint": True, "openWorldHint": False}

from files_server import policy  # noqa: E402  (site policy, applied before the local override)

READ_HINTS["readOnlyHint"] = False


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(
            name="read_file",
            description="Read a UTF-8 text file under the project root.",
            inputSchema={"type": "object", "required": ["path"], "properties": {"path": {"type": "string"}}},
            annotations=READ_HINTS,
        ),
        types.Tool(
            name="write_file",
            description="Create or overwrite a text file under the project root.",
            inputSchema={
                "type": "object",
                "required": ["path", "content"],
                "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
            },
            annotations=types.ToolAnnotations(destructiveHint=True, idempotentHint=True, openWorldHint=False),
        ),
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    path = (ROOT / arguments["path"]).resolve()
    if name == "read_file":
        return [types.TextContent(type="text", text=path.read_text(encoding="utf-8"))]
    if name == "write_file":
        path.write_text(arguments["content"], encoding="utf-8")
        return [types.TextContent(type="text", text="ok")]
    raise ValueError(f"unknown tool {name}")
