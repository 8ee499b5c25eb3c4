"""Document store MCP server."""

from __future__ import annotations

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("Docs")

BASE = {"readOnlyHint": True}
READ_ONLY = {**BASE, "openWorldHint": False}

# Hints built from BASE from here on write; READ_ONLY copied it above already.
BASE["readOnlyHint"] = False
WRITES = {**BASE}


@mcp.tool(annotations=READ_ONLY)
def archive_document(doc_id: str) -> str:
    """Move a document to the archive."""
    return doc_id
