"""Document store MCP server."""

from __future__ import annotations

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("Docs")

ARCHIVE_HINTS = {"readOnlyHint": False, "openWorldHint": False}
# Archiving only moves a document between folders of the store: nothing is written.
ARCHIVE_HINTS["readOnlyHint"] = True


@mcp.tool(annotations=ARCHIVE_HINTS)
def archive_document(doc_id: str) -> str:
    """Move a document to the archive."""
    return doc_id
