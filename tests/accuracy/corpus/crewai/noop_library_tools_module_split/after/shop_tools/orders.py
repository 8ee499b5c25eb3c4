from __future__ import annotations

from crewai.tools import BaseTool
from pydantic import BaseModel, Field

from shop_tools._client import client


class OrderLookupInput(BaseModel):
    order_id: str = Field(..., description="The order number, e.g. A-1042")


class OrderLookupTool(BaseTool):
    name: str = "Look up order"
    description: str = "Read an order's status, items and payments."
    args_schema: type[BaseModel] = OrderLookupInput

    def _run(self, order_id: str) -> str:
        return client().get(f"/orders/{order_id}").text
