"""Entry point: one FastMCP server; tool groups register themselves on it."""

from __future__ import annotations

from fastmcp import FastMCP

from billing.costs import CostTools

mcp = FastMCP("Billing")
CostTools(mcp, currency="EUR")


if __name__ == "__main__":
    mcp.run()
