from memkit.tools import create_notes_tool

__all__ = ["create_notes_tool"]
