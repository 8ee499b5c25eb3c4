from pydantic_ai import Agent
from pydantic_ai.capabilities import Thinking, WebSearch

researcher = Agent(
    "anthropic:claude-sonnet-4-5",
    name="researcher",
    instructions="Research the question and cite sources.",
    capabilities=[WebSearch(), Thinking()],
)
