"""Tools of the support crew."""

from __future__ import annotations

from crewai.tools import BaseTool, tool
from pydantic import BaseModel, Field

from support_crew.shop import shop


@tool("Lookup Order")
def lookup_order(order_id: str) -> str:
    """Fetch an order with its items, payments and shipping status."""
    return shop.order(order_id)


class RefundInput(BaseModel):
    order_id: str = Field(..., description="The order to refund.")
    amount: float = Field(..., description="Amount in EUR.")


class RefundTool(BaseTool):
    name: str = "Issue Refund"
    description: str = "Refund part or all of an order to the original payment method."
    args_schema: type[BaseModel] = RefundInput

    def _run(self, order_id: str, amount: float) -> str:
        return shop.refund(order_id, amount)
