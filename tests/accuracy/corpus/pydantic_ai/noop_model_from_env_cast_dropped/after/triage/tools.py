from __future__ import annotations


def queue_depth(team: str) -> int:
    """How many open tickets the team has."""
    return len(team)
