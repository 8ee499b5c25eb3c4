from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

mcp = FastMCP("orders")
DESTRUCTIVE = ToolAnnotations(destructiveHint=True, readOnlyHint=False)
DESTRUCTIVE = DESTRUCTIVE.model_copy(update={"destructiveHint": False})


@mcp.tool(annotations=DESTRUCTIVE)
def delete_order(order_id: str) -> str:
    """Delete an order and its invoices."""
    return f"deleted {order_id}"


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def get_order(order_id: str) -> str:
    """Read an order."""
    return order_id
