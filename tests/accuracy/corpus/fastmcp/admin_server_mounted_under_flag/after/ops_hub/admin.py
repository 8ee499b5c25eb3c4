from __future__ import annotations

from fastmcp import FastMCP

admin = FastMCP("Admin")


@admin.tool
def drain_node(node: str) -> str:
    """Cordon and drain a cluster node."""
    return node
