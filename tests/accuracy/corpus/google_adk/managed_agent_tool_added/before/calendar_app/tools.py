def read_calendar(day: str) -> dict:
    """List the meetings on a day."""
    return {"meetings": []}


def cancel_meeting(meeting_id: str) -> dict:
    """Cancel a meeting and notify the attendees."""
    return {"status": "cancelled"}
