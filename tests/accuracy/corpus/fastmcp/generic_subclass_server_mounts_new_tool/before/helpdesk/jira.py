"""Jira tools, mounted under the `jira` prefix."""

from __future__ import annotations

from fastmcp import FastMCP

jira = FastMCP("Jira")


@jira.tool(annotations={"readOnlyHint": True})
def search_issues(query: str) -> list[str]:
    """Issue keys matching a JQL query."""
    return []
