from mcp.server.fastmcp import FastMCP

from notes_mcp.store import NoteStore


class ArchiveServer(FastMCP):
    """A server for note archives; deployments build it with their own store."""

    def __init__(self, store: NoteStore):
        self.store = store
        super().__init__(name="archive")
        self.add_tool(self.purge, name="archive-purge")

    def purge(self) -> str:
        """Delete the whole archive."""
        self.store.notes.clear()
        return "purged"
