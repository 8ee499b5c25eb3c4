"""Billing MCP server."""

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

from billing_mcp.metered import metered

billing = FastMCP("billing")


@metered(billing, "invoice_total", annotations=ToolAnnotations(readOnlyHint=True))
def invoice_total(invoice_id: str) -> float:
    """Total amount due on an invoice."""
    return 0.0


@metered(billing, "issue_refund")
def issue_refund(invoice_id: str, amount: float) -> bool:
    """Refund part of an invoice to the customer."""
    return True


if __name__ == "__main__":
    billing.run()
