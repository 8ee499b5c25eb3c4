"""The shop's MCP server."""

import os

from fastmcp import FastMCP

from shop.prompts import register_prompts

primary_server = FastMCP(os.environ.get("SHOP_SERVER_NAME", "shop"))


@primary_server.tool(annotations={"readOnlyHint": True})
def order_status(order_id: str) -> str:
    """Where an order is."""
    return order_id


register_prompts(primary_server)
