"""Weather lookups for the command-line agent."""

from __future__ import annotations

from smolagents import tool


@tool
def get_weather(location: str, celsius: bool | None = False) -> str:
    """Get the weather for the next days at a location.

    Args:
        location: The city to look up.
        celsius: Report temperatures in Celsius instead of Fahrenheit.
    """
    return f"Sunny in {location}"
