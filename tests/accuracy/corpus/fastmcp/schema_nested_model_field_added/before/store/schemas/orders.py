"""Orders, made of line items."""

from pydantic import BaseModel

from store.schemas.items import LineItem


class Order(BaseModel):
    customer_id: str
    items: list[LineItem]
