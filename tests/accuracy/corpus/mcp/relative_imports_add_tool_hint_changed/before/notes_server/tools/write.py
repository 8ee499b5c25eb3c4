from ..app import mcp


def append_note(title: str, text: str) -> str:
    """Append text to a note, creating it if needed."""
    return title


mcp.add_tool(append_note, annotations={"destructiveHint": False, "idempotentHint": False})
