from pydantic_ai import Agent, RunContext

weather_agent = Agent("openai:gpt-5", name="weather_agent", instructions="Answer weather questions.")


@weather_agent.tool
def get_weather(ctx: RunContext[None], city: str) -> str:
    """Current weather in a city."""
    return "sunny"
