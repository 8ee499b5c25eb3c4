from langchain_core.tools import StructuredTool


def create_notes_tool(folder: str, name: str = "notes"):
    """Build a tool over one folder of notes; agents of the library's users list it."""

    def notes(query: str, limit: int = 5, erase: bool = False) -> str:
        if erase:
            return f"{folder}: erased {query}"
        return f"{folder}: {query} ({limit})"

    return StructuredTool.from_function(notes, name="notes", description="Search the notes folder, or erase a note.")
