from __future__ import annotations

from agents import Agent

from shop.context import ShopContext
from shop.prompts import dynamic_instructions
from shop.tools import order_status

shop_agent = Agent[ShopContext](
    name="Shop Assistant",
    instructions=dynamic_instructions,
    tools=[order_status],
    model="gpt-4.1",
)
