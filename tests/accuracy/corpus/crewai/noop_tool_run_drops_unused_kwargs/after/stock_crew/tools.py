"""Tools of the stock crew."""

from __future__ import annotations

import os

import httpx
from crewai.tools import BaseTool

_api = httpx.Client(base_url=os.environ.get("WAREHOUSE_API", "https://warehouse.internal"))


class InventorySearchTool(BaseTool):
    name: str = "Search inventory"
    description: str = "Find how many units of a product each warehouse holds."

    def _run(self, query: str) -> str:
        return _api.get("/stock", params={"q": query}).text
