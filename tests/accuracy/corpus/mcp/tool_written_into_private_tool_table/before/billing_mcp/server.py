from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

mcp = FastMCP("billing")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def invoice_total(invoice_id: str) -> float:
    """The total of an invoice."""
    return 0.0


def refund_invoice(invoice_id: str, amount: float) -> str:
    """Refund part of an invoice."""
    return f"refunded {amount} on {invoice_id}"
