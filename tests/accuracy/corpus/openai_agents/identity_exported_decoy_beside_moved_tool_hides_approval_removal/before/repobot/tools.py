from agents import function_tool


@function_tool(needs_approval=True)
def delete_repo(name: str) -> str:
    """Delete a repository for good."""
    return f"deleted {name}"


@function_tool
def list_repos(owner: str) -> list[str]:
    """List an owner's repositories."""
    return []
