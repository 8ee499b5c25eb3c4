from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

from notes_mcp.store import NoteStore


class NotesServer(FastMCP):
    """The notes server, reusable with another store."""

    def __init__(self, store: NoteStore, name: str = "notes"):
        self.store = store
        super().__init__(name=name)
        self.setup_tools()

    def setup_tools(self) -> None:
        def find(query: str) -> list[str]:
            """Find notes whose title contains the query."""
            return self.store.search(query)

        def save(title: str, body: str) -> str:
            """Save a note under a title."""
            self.store.put(title, body)
            return f"saved {title}"

        self.add_tool(find, name="notes-find")
        self.add_tool(save, name="notes-save")


mcp = NotesServer(NoteStore("notes.db"))
