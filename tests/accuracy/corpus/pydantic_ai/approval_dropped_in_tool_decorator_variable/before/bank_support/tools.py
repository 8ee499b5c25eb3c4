"""Tools of the support agent."""

from __future__ import annotations

from pydantic_ai import RunContext

from bank_support.agent import support_agent
from bank_support.deps import SupportDependencies

# Card actions wait for a bank officer.
needs_sign_off = support_agent.tool(requires_approval=True)


@support_agent.tool
async def customer_balance(ctx: RunContext[SupportDependencies], include_pending: bool) -> float:
    """Returns the customer's current account balance."""
    return await ctx.deps.db.customer_balance(id=ctx.deps.customer_id, include_pending=include_pending)


@needs_sign_off
async def block_card(ctx: RunContext[SupportDependencies], reason: str) -> str:
    """Block the customer's card. Use when the customer reports it lost or stolen."""
    await ctx.deps.db.block_card(id=ctx.deps.customer_id)
    return "card blocked"


@support_agent.tool_plain
def exchange_rate(currency: str) -> float:
    """Today's exchange rate from EUR to the given currency."""
    return {"USD": 1.08, "GBP": 0.85}.get(currency.upper(), 1.0)
