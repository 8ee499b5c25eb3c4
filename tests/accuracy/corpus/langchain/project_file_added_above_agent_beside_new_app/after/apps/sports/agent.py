"""A sports assistant served as the `sports` graph."""

from langchain.agents import create_agent
from langchain.tools import tool


@tool
def get_scores(league: str) -> list[str]:
    """Final scores of today's games in a league."""
    return [f"{league}: 2-1"]


graph = create_agent(
    "openai:gpt-4.1-mini",
    tools=[get_scores],
    system_prompt="You report sports results. Never guess a score.",
)
