from __future__ import annotations

import os

from agents import function_tool


@function_tool(name_override=os.environ.get("TICKET_TOOL_NAME", "open_ticket"), needs_approval=True)
def create_ticket(title: str, body: str) -> str:
    """Open a ticket in the help desk."""
    return f"opened {title}"
