"""Tools of the orders assistant."""

from __future__ import annotations

import os

import httpx
from langchain_core.tools import StructuredTool
from pydantic import BaseModel, Field

_api = httpx.Client(base_url=os.environ.get("ORDERS_API", "https://orders.internal"))


class SearchOrdersArgs(BaseModel):
    customer_email: str = Field(description="The customer's email address")


def _search_orders(customer_email: str) -> list[dict]:
    return _api.get("/orders", params={"email": customer_email}).json()


search_orders = StructuredTool.from_function(
    func=_search_orders,
    name="search_orders",
    description="List a customer's recent orders.",
    args_schema=SearchOrdersArgs,
)
