"""Document store MCP server."""

from __future__ import annotations

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.tools import Tool

READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}


def archive_document(doc_id: str) -> str:
    """Move a document to the archive."""
    return doc_id


mcp = FastMCP("Docs", tools=[Tool.from_function(archive_document, annotations=READ_ONLY)])
