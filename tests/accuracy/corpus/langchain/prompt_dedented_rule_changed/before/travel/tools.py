from __future__ import annotations

from langchain_core.tools import tool


@tool
def search_flights(origin: str, destination: str) -> str:
    """Search flights between two airports."""
    return f"{origin} -> {destination}: 2 flights"
