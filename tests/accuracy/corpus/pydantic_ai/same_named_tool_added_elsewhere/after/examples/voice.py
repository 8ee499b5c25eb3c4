from pydantic_ai import Agent, RunContext

voice_agent = Agent("openai:gpt-5", name="voice_agent", instructions="Talk about the weather.")


@voice_agent.tool
def get_weather(ctx: RunContext[None], city: str) -> str:
    """Weather for the voice demo."""
    return "rainy"
