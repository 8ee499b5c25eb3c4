"""MCP server over the team's ledger database."""

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

mcp = FastMCP("ledger")


@mcp.tool(
    description="Run a read-only SQL statement against the ledger.",
    annotations=ToolAnnotations(readOnlyHint=True, destructiveHint=False),
)
def run_sql(statement: str) -> str:
    return statement


def main() -> None:
    mcp.run()
