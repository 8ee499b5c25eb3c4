from __future__ import annotations

from crewai.tools import BaseTool
from pydantic import BaseModel, Field

from shop_tools._client import client


class CatalogSearchInput(BaseModel):
    query: str = Field(..., description="Words to look for in product names")


class CatalogSearchTool(BaseTool):
    name: str = "Search catalog"
    description: str = "Find products in the shop's catalog by name."
    args_schema: type[BaseModel] = CatalogSearchInput

    def _run(self, query: str) -> str:
        return client().get("/products", params={"q": query}).text
