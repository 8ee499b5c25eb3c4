"""The server clients connect to: mounts the domain servers."""

from __future__ import annotations

from fastmcp import FastMCP

from ops_hub.deploys import deploys
from ops_hub.metrics import metrics

mcp = FastMCP("OpsHub", exclude_tags={"experimental"})
mcp.mount(deploys, prefix="deploy")
mcp.mount(metrics, prefix="metrics")


@mcp.tool(annotations={"readOnlyHint": True})
def whoami() -> str:
    """The on-call engineer this session acts for."""
    return "oncall"


if __name__ == "__main__":
    mcp.run(transport="http", host="127.0.0.1", port=8000)
