"""Tools of the stock crew."""

from __future__ import annotations

import os

import httpx
from crewai.tools import BaseTool
from pydantic import BaseModel, Field

_api = httpx.Client(base_url=os.environ.get("WAREHOUSE_API", "https://warehouse.internal"))


class InventorySearchInput(BaseModel):
    query: str = Field(..., description="Product name or SKU to look for")


class InventorySearchTool(BaseTool):
    name: str = "Search inventory"
    description: str = "Find how many units of a product each warehouse holds."
    args_schema: type[BaseModel] = InventorySearchInput

    def _run(self, query: str) -> list[dict]:
        return _api.get("/stock", params={"q": query}).json()
