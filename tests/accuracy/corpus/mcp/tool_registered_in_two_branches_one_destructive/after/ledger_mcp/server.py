"""MCP server over the team's ledger database."""

import os

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

mcp = FastMCP("ledger")


def run_sql(statement: str) -> str:
    return statement


def main() -> None:
    # The access mode decides how the one SQL tool is offered.
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
