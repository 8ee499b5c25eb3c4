from pydantic_ai import Agent

research_agent = Agent(
    "anthropic:claude-sonnet-4-5",
    name="researcher",
    instructions="Answer questions about the codebase from its documentation.",
)


@research_agent.tool_plain
def search_docs(query: str) -> list[str]:
    """Search the documentation."""
    return [f"doc about {query}"]
