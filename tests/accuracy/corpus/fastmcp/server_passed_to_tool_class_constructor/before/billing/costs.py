"""Cost reporting tools, registered by the class on the server it is given."""

from __future__ import annotations

from fastmcp import FastMCP


class CostTools:
    def __init__(self, mcp: FastMCP, currency: str = "USD") -> None:
        self.currency = currency
        mcp.tool(name="cost_report", annotations={"readOnlyHint": True})(self.report)

    def report(self, month: str) -> str:
        """Total spend for a month."""
        return f"0 {self.currency}"
