from langchain_core.tools import tool


@tool
def search_flights(origin: str, destination: str) -> list[str]:
    """Search flights between two airports."""
    return [f"{origin}-{destination} 08:00"]


@tool
def search_hotels(city: str) -> list[str]:
    """Search hotels in a city."""
    return [f"Hotel {city}"]
