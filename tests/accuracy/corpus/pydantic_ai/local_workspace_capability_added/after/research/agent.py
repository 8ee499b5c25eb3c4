from pydantic_ai import Agent
from pydantic_ai.capabilities import LocalWorkspace, Thinking, WebSearch

researcher = Agent(
    "anthropic:claude-sonnet-4-5",
    name="researcher",
    instructions="Research the question and cite sources.",
    capabilities=[WebSearch(), Thinking(), LocalWorkspace("./scratch")],
)
