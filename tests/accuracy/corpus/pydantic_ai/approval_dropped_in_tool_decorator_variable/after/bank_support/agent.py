from __future__ import annotations

from pydantic_ai import Agent, DeferredToolRequests, RunContext

from bank_support.deps import SupportDependencies, SupportOutput

support_agent = Agent(
    "openai:gpt-4o",
    deps_type=SupportDependencies,
    output_type=[SupportOutput, DeferredToolRequests],
    instructions=(
        "You are a support agent in our bank, give the "
        "customer support and judge the risk level of their query."
    ),
)


@support_agent.instructions
async def add_customer_name(ctx: RunContext[SupportDependencies]) -> str:
    customer_name = await ctx.deps.db.customer_name(id=ctx.deps.customer_id)
    return f"The customer's name is {customer_name!r}"
