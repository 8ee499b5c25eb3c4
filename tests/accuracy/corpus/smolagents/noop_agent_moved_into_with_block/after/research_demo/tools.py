"""Tools shared by the research demo agents."""

from __future__ import annotations

from smolagents import tool


@tool
def leopard_speed_kmh() -> float:
    """Top running speed of a leopard, in kilometres per hour."""
    return 58.0
