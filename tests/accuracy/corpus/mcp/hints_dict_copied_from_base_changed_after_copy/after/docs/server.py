"""Document store MCP server."""

from __future__ import annotations

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("Docs")

BASE = {"readOnlyHint": False}
READ_ONLY = {**BASE, "openWorldHint": False}

# Hints built from here on are read-only again; READ_ONLY copied BASE above already.
BASE["readOnlyHint"] = True


@mcp.tool(annotations=READ_ONLY)
def archive_document(doc_id: str) -> str:
    """Move a document to the archive."""
    return doc_id
