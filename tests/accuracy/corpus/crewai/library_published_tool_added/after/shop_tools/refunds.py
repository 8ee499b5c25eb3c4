from __future__ import annotations

from crewai.tools import BaseTool
from pydantic import BaseModel, Field

from shop_tools._client import client


class RefundOrderInput(BaseModel):
    order_id: str = Field(..., description="The order number, e.g. A-1042")
    amount: float = Field(..., gt=0, description="Amount to refund, in EUR")


class RefundOrderTool(BaseTool):
    name: str = "Refund order"
    description: str = "Refund part or all of an order to the customer's card."
    args_schema: type[BaseModel] = RefundOrderInput

    def _run(self, order_id: str, amount: float) -> str:
        return client().post(f"/orders/{order_id}/refunds", json={"amount": amount}).text
