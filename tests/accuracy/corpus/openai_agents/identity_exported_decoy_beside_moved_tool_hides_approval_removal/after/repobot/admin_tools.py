"""Tools that change repositories."""
from agents import function_tool


@function_tool
def delete_repo(name: str) -> str:
    """Delete a repository for good."""
    return f"deleted {name}"
