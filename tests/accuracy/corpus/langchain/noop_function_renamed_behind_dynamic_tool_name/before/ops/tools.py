from __future__ import annotations

from langchain_core.tools import tool

from ops.config import RESTART_TOOL


@tool(RESTART_TOOL)
def restart(service: str) -> str:
    """Restart a service."""
    return f"restarted {service}"
