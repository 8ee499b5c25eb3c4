"""The billing agent: one LLM loop over the billing tools."""

from __future__ import annotations

from receipt.markers import agent, replayable

from billing_bot.llm import run_loop
from billing_bot.tools import lookup_invoice, refund


@agent(model="gpt-5", trust="human_supervised")
@replayable
def billing_agent(request: str) -> str:
    """You are the billing assistant. Explain invoices plainly; refund only what the policy allows."""
    return run_loop(request, tools=[lookup_invoice, refund])
