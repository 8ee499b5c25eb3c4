"""Deployment tools for the ops agent."""

from __future__ import annotations

from langchain_core.tools import tool

from opsbot.vocab import Environment


@tool
def restart_service(service: str, environment: Environment) -> str:
    """Restart a service in one environment."""
    return f"restarted {service} in {environment}"
