"""The catalogue assistant."""

from __future__ import annotations

from pydantic_ai import Agent

from shop.catalogue import search
from shop.models import ProductQuery

agent = Agent("openai:gpt-4o", name="catalogue", instructions="Help customers find products.")


@agent.tool_plain
def find_products(query: ProductQuery) -> list[dict]:
    """Search the product catalogue."""
    return search(query.text, query.max_results, query.in_stock_only)
