"""Deployment tools, mounted under the `deploy` prefix."""

from __future__ import annotations

from fastmcp import Context, FastMCP
from pydantic import Field

from ops_hub.platform import platform

deploys = FastMCP("Deploys")


@deploys.tool(tags={"deploy", "read"}, annotations={"readOnlyHint": True, "openWorldHint": False})
def status(service: str) -> dict:
    """Current version, replica count and health of a service."""
    return platform.status(service)


@deploys.tool(tags={"deploy", "write"}, annotations={"idempotentHint": True, "openWorldHint": False})
async def rollback(service: str, to_version: str = Field(..., description="Version to roll back to, exactly as the release pipeline tagged it (for example 1.4.2 or 1.4.2-hotfix.1); never a branch name, a commit sha or the word latest"), ctx: Context = None) -> str:
    """Roll a service back to an earlier version."""
    await ctx.report_progress(0, 1)
    return platform.rollback(service, to_version)
