"""Note tools, added to whichever server is handed in."""

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations


def register(server: FastMCP) -> None:
    @server.tool(annotations=ToolAnnotations(readOnlyHint=True))
    def list_notes(folder: str) -> list[str]:
        """Titles of the notes in a folder."""
        return []

    @server.tool(annotations=ToolAnnotations(destructiveHint=True))
    def delete_folder(folder: str) -> int:
        """Delete every note of a folder; returns how many were deleted."""
        return 0
