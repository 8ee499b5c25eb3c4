
from __future__ import annotations

from langchain_core.tools import tool


@tool
def search_hotels(city: str, nights: int = 1) -> list[str]:
    """Find hotels with free rooms in a city."""
    return [f"{city} Grand", f"{city} Budget Inn"]


@tool
def book_hotel(hotel_name: str) -> str:
    """Book a stay at a hotel."""
    return f"Successfully booked a stay at {hotel_name}."
