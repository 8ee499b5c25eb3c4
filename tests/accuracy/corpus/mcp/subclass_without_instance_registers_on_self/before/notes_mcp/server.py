from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

from notes_mcp.store import NoteStore

store = NoteStore("notes.db")
mcp = FastMCP("notes")


@mcp.tool(name="notes-find", annotations=ToolAnnotations(readOnlyHint=True))
def find(query: str) -> list[str]:
    """Find notes whose title contains the query."""
    return store.search(query)


@mcp.tool(name="notes-save")
def save(title: str, body: str) -> str:
    """Save a note under a title."""
    store.put(title, body)
    return f"saved {title}"
