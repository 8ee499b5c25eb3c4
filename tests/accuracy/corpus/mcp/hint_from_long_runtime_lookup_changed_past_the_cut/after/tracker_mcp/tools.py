"""Tools and prompts of the issue-tracker server."""

from __future__ import annotations

from mcp.server.fastmcp import Context
from mcp.types import ToolAnnotations

from tracker_mcp.server import mcp
from tracker_mcp.settings import deployment
from tracker_mcp.store import store


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def search_issues(query: str, limit: int = 20) -> list[dict]:
    """Search issues by title. Returns id, title and state."""
    return [{"id": i.id, "title": i.title, "state": i.state} for i in store.search(query, limit)]


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=deployment.flag("tracker.tools.create_issue.read_only_hint.for_the_production_deployment_of_the_issue_tracker_service_in_every_region_we_run", fallback=False), destructiveHint=False, openWorldHint=False))
def create_issue(title: str, body: str) -> int:
    """File a new issue and return its id."""
    return store.create(title, body).id


@mcp.tool(annotations=ToolAnnotations(title="Delete issue", openWorldHint=False))
async def delete_issue(issue_id: int, ctx: Context) -> str:
    """Permanently delete an issue."""
    await ctx.info(f"deleting issue {issue_id}")
    store.delete(issue_id)
    return f"deleted {issue_id}"


@mcp.prompt()
def triage_issue(issue_id: str) -> str:
    """Ask the model to triage one issue."""
    return f"Read issue {issue_id}, label it, and propose an owner."
