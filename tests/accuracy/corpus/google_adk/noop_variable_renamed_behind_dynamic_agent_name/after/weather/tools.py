def get_forecast(city: str) -> str:
    """Forecast for a city."""
    return f"sunny in {city}"
