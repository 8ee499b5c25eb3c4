from typing import TypedDict


class NotesState(TypedDict):
    transcript: str
    action_items: str
    summary: str
