from agents import Agent, function_tool
from agents.extensions.experimental.codex import codex_tool

REVIEW_PROMPT = "Review the pending change and summarise it for the author."


@function_tool
def changed_files() -> list[str]:
    """The paths changed in the working tree."""
    return []


reviewer = Agent(name="Change reviewer", instructions=REVIEW_PROMPT, tools=[changed_files, codex_tool()])
