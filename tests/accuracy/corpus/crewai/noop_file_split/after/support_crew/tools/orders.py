from __future__ import annotations

from crewai.tools import tool

from support_crew.shop import shop


@tool("Lookup Order")
def lookup_order(order_id: str) -> str:
    """Fetch an order with its items, payments and shipping status."""
    return shop.order(order_id)
