"""Order tools."""

from fastmcp import FastMCP

from store.schemas.orders import Order

mcp = FastMCP("Store")


@mcp.tool(annotations={"destructiveHint": False, "openWorldHint": False})
def place_order(order: Order) -> str:
    """Place an order for a customer."""
    return f"order for {order.customer_id}: {len(order.items)} items"
