from tracker_mcp.server import mcp


@mcp.prompt()
def triage_issue(issue_id: str) -> str:
    """Ask the model to triage one issue."""
    return f"Read issue {issue_id}, label it, and propose an owner."
