from pydantic_ai import RunContext


def delete_note(ctx: RunContext[None], note_id: int) -> str:
    """Delete a note for good."""
    return f"deleted {note_id}"


def list_notes(ctx: RunContext[None]) -> list[str]:
    """List the notes."""
    return []
