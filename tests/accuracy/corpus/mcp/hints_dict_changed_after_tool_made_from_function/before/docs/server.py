"""Document store MCP server."""

from __future__ import annotations

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.tools import Tool

mcp = FastMCP("Docs")

READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}


def archive_document(doc_id: str) -> str:
    """Move a document to the archive."""
    return doc_id


ARCHIVE = Tool.from_function(archive_document, annotations=READ_ONLY)
mcp.add_tool(ARCHIVE)
