"""The shop's MCP server."""

import os

from fastmcp import FastMCP

from shop.prompts import register_prompts

app = FastMCP(os.environ.get("SHOP_SERVER_NAME", "shop"))


@app.tool(annotations={"readOnlyHint": True})
def order_status(order_id: str) -> str:
    """Where an order is."""
    return order_id


register_prompts(app)
