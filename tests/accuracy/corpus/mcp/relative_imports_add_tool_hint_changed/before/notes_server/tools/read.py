from mcp.types import ToolAnnotations

from ..app import mcp


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def list_notes(folder: str = "/") -> list[str]:
    """List note titles in a folder."""
    return []
