from __future__ import annotations

from smolagents import tool


@tool
def open_tickets(queue: str) -> list[str]:
    """List the titles of the open tickets in a queue.

    Args:
        queue: The support queue to read, e.g. "billing".
    """
    return [f"{queue}: example ticket"]
