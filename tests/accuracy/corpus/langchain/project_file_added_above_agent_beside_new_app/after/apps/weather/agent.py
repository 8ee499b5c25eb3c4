"""A weather assistant served as the `weather` graph."""

from langchain.agents import create_agent
from langchain.tools import tool


@tool
def get_forecast(city: str, days: int = 3) -> str:
    """Forecast for a city over the next few days."""
    return f"{city}: sunny for {days} days"


graph = create_agent(
    "openai:gpt-4.1-mini",
    tools=[get_forecast],
    system_prompt="You answer questions about the weather. Always say which city you mean.",
)
