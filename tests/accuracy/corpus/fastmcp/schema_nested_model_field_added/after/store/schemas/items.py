"""Line items."""

from pydantic import BaseModel, Field


class LineItem(BaseModel):
    sku: str
    quantity: int = Field(default=1, ge=1)
    unit_price_cents: int
