"""The server clients connect to: a typed FastMCP subclass that mounts the Jira tools."""

from __future__ import annotations

from dataclasses import dataclass

from fastmcp import FastMCP

from helpdesk.jira import jira


@dataclass
class AppContext:
    tenant: str


class HelpdeskServer(FastMCP[AppContext]):
    """Adds tenant bookkeeping to FastMCP."""


mcp = HelpdeskServer("Helpdesk")
mcp.mount(jira, prefix="jira")


if __name__ == "__main__":
    mcp.run()
