"""Low-level MCP server over a folder of markdown notes."""

from __future__ import annotations

from pathlib import Path

import mcp.types as types
from mcp.server.lowlevel import Server

NOTES = Path.home() / "notes"
server = Server("notes")

NOTE_NAME = {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}

TOOLS = [
    types.Tool(
        name="list_notes",
        description="Titles of every note in the notes folder.",
        inputSchema={"type": "object", "properties": {}},
        annotations=types.ToolAnnotations(readOnlyHint=True, openWorldHint=False),
    ),
    types.Tool(
        name="show_note",
        description="The markdown text of one note.",
        inputSchema=NOTE_NAME,
        annotations=types.ToolAnnotations(readOnlyHint=True, openWorldHint=False),
    ),
    types.Tool(
        name="search_notes",
        description="Titles of the notes whose text contains a phrase.",
        inputSchema={"type": "object", "required": ["phrase"], "properties": {"phrase": {"type": "string"}}},
        annotations=types.ToolAnnotations(readOnlyHint=True, openWorldHint=False),
    ),
]


PAGE_SIZE = 2


@server.list_tools()
async def list_tools(request: types.ListToolsRequest) -> types.ListToolsResult:
    cursor = request.params.cursor if request.params is not None else None
    first = int(cursor) if cursor else 0
    last = first + PAGE_SIZE
    page = TOOLS[first:last]
    more = str(last) if last < len(TOOLS) else None
    return types.ListToolsResult(tools=page, nextCursor=more)


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "list_notes":
        titles = sorted(p.stem for p in NOTES.glob("*.md"))
        return [types.TextContent(type="text", text="\n".join(titles))]
    if name == "show_note":
        text = (NOTES / f"{arguments['title']}.md").read_text(encoding="utf-8")
        return [types.TextContent(type="text", text=text)]
    if name == "search_notes":
        hits = sorted(p.stem for p in NOTES.glob("*.md") if arguments["phrase"] in p.read_text(encoding="utf-8"))
        return [types.TextContent(type="text", text="\n".join(hits))]
    raise ValueError(f"unknown tool {name}")
