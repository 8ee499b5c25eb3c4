from __future__ import annotations

import os

import httpx
from crewai.tools import BaseTool
from pydantic import BaseModel, Field

__all__ = ["CatalogSearchTool", "OrderLookupTool"]


def _client() -> httpx.Client:
    return httpx.Client(base_url=os.environ.get("SHOP_API", "https://shop.internal/api"))


class CatalogSearchInput(BaseModel):
    query: str = Field(..., description="Words to look for in product names")


class CatalogSearchTool(BaseTool):
    name: str = "Search catalog"
    description: str = "Find products in the shop's catalog by name."
    args_schema: type[BaseModel] = CatalogSearchInput

    def _run(self, query: str) -> str:
        return _client().get("/products", params={"q": query}).text


class OrderLookupInput(BaseModel):
    order_id: str = Field(..., description="The order number, e.g. A-1042")


class OrderLookupTool(BaseTool):
    name: str = "Look up order"
    description: str = "Read an order's status, items and payments."
    args_schema: type[BaseModel] = OrderLookupInput

    def _run(self, order_id: str) -> str:
        return _client().get(f"/orders/{order_id}").text
