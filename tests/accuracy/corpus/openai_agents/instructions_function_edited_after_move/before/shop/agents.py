from __future__ import annotations

from agents import Agent, RunContextWrapper

from shop.context import ShopContext
from shop.tools import order_status

POLICY = "You are the Acme shop assistant. Never promise refunds."


def shop_instructions(ctx: RunContextWrapper[ShopContext], agent: Agent[ShopContext]) -> str:
    customer = ctx.context.customer_name or "the customer"
    if ctx.context.tier == "gold":
        return f"{POLICY} Greet {customer} by name; gold customers get free returns."
    return f"{POLICY} Help {customer} with their orders."


shop_agent = Agent[ShopContext](
    name="Shop Assistant",
    instructions=shop_instructions,
    tools=[order_status],
    model="gpt-4.1",
)
