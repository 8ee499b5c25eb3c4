from langchain_core.tools import StructuredTool


def create_notes_tool(folder: str):
    def notes(query: str, limit: int = 5) -> str:
        """Search the notes folder."""
        return f"{folder}: {query} ({limit})"

    return _StrictTool.from_function(notes, name="notes")


class _StrictTool(StructuredTool):
    """Marks every argument required in the schema the model sees."""
