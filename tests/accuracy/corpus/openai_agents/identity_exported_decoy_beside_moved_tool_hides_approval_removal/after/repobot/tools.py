from agents import function_tool


@function_tool
def list_repos(owner: str) -> list[str]:
    """List an owner's repositories."""
    return []
