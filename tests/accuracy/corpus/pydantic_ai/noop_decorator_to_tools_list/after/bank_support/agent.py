
from __future__ import annotations

from pydantic_ai import Agent, DeferredToolRequests, RunContext, Tool

from bank_support.deps import SupportDependencies, SupportOutput


def exchange_rate(currency: str) -> float:
    """Today's exchange rate from EUR to the given currency."""
    return {"USD": 1.08, "GBP": 0.85}.get(currency.upper(), 1.0)


support_agent = Agent(
    "openai:gpt-4o",
    deps_type=SupportDependencies,
    output_type=[SupportOutput, DeferredToolRequests],
    tools=[Tool(exchange_rate, takes_ctx=False)],
    instructions=(
        "You are a support agent in our bank, give the "
        "customer support and judge the risk level of their query."
    ),
)


@support_agent.instructions
async def add_customer_name(ctx: RunContext[SupportDependencies]) -> str:
    customer_name = await ctx.deps.db.customer_name(id=ctx.deps.customer_id)
    return f"The customer's name is {customer_name!r}"
