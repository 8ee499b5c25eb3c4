from __future__ import annotations

from langchain_core.tools import tool
from langgraph.types import interrupt


@tool
def search_hotels(city: str, nights: int = 1) -> list[str]:
    """Find hotels with free rooms in a city."""
    return [f"{city} Grand", f"{city} Budget Inn"]


@tool
def book_hotel(hotel_name: str) -> str:
    """Book a stay at a hotel."""
    response = interrupt(
        f"Trying to call `book_hotel` with args {{'hotel_name': {hotel_name}}}. "
        "Please approve or suggest edits."
    )
    if response["type"] == "accept":
        pass
    elif response["type"] == "edit":
        hotel_name = response["args"]["hotel_name"]
    else:
        raise ValueError(f"Unknown response type: {response['type']}")
    return f"Successfully booked a stay at {hotel_name}."
