"""Fixtures for the manual QA script."""
from agents import Agent, function_tool


@function_tool(needs_approval=True)
def delete_repo(name: str) -> str:
    """Delete a repository for good."""
    return f"deleted {name}"


qa_bot = Agent(name="qa_bot", instructions="Exercise the admin flows on the sandbox org.", tools=[delete_repo])
