"""Read-only metrics tools."""

from __future__ import annotations

from fastmcp import FastMCP

from ops_hub.platform import platform

metrics = FastMCP("Metrics")


@metrics.tool(annotations={"readOnlyHint": True})
def error_rate(service: str, window_minutes: int = 15) -> float:
    """Share of 5xx responses over the window."""
    return platform.error_rate(service, window_minutes)
