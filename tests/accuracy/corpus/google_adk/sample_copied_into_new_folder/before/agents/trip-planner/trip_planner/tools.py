def search_flights(origin: str, destination: str, date: str) -> list[dict]:
    """Flights between two airports on a date, cheapest first."""
    return [{"flight": "XY123", "price": 180}]


def book_flight(flight: str, traveller: str) -> dict:
    """Book a seat on a flight for a traveller."""
    return {"flight": flight, "traveller": traveller, "status": "booked"}
