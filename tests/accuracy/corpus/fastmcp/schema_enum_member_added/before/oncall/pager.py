"""Paging tools."""

from __future__ import annotations

from fastmcp import FastMCP

from oncall.levels import Severity

mcp = FastMCP("Pager")


@mcp.tool(annotations={"destructiveHint": False, "openWorldHint": True})
def page_oncall(service: str, severity: Severity = Severity.LOW) -> str:
    """Page the on-call engineer of a service."""
    return f"paged {service} at {severity.value}"
