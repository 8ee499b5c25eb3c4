"""Tools the sandboxed agents share."""

from __future__ import annotations

from smolagents import tool


@tool
def bridge_length_m() -> float:
    """Length of the Pont des Arts, in metres."""
    return 155.0
