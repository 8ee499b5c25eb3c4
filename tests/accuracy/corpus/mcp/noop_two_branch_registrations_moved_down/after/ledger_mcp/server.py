"""MCP server over the team's ledger database."""

import os

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

mcp = FastMCP("ledger")


def run_sql(statement: str) -> str:
    """Hand the statement to the ledger's SQL engine."""
    return statement


def _banner() -> str:
    return "ledger MCP server"


def main() -> None:
    # The access mode decides how the one SQL tool is offered: restricted
    # deployments get the read-only variant, every other one the full one.
    print(_banner())
    if os.environ.get("LEDGER_ACCESS") == "restricted":
        mcp.add_tool(
            run_sql,
            description="Run a read-only SQL statement against the ledger.",
            annotations=ToolAnnotations(readOnlyHint=True, destructiveHint=False),
        )
    else:
        mcp.add_tool(
            run_sql,
            description="Run a read-only SQL statement against the ledger.",
            annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
        )
    mcp.run()
