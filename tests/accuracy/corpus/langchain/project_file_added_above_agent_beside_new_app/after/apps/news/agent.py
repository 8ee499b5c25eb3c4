"""A news assistant served as the `news` graph."""

from langchain.agents import create_agent
from langchain.tools import tool


@tool
def get_headlines(topic: str, limit: int = 5) -> list[str]:
    """Latest headlines about a topic."""
    return [f"{topic} headline {i}" for i in range(limit)]


graph = create_agent(
    "openai:gpt-4.1-mini",
    tools=[get_headlines],
    system_prompt="You summarise the news. Quote headlines exactly.",
)
