"""Prompts of the shop agents."""

from __future__ import annotations

from agents import Agent, RunContextWrapper

from shop.context import ShopContext

POLICY = "You are the Acme shop assistant. Never promise refunds."


def dynamic_instructions(ctx: RunContextWrapper[ShopContext], agent: Agent[ShopContext]) -> str:
    customer = ctx.context.customer_name or "the customer"
    if ctx.context.tier == "gold":
        return f"{POLICY} Greet {customer} by name; gold customers get free returns and express shipping."
    return f"{POLICY} Help {customer} with their orders."
