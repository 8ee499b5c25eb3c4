"""Nightly reconciliation; never exposed to customers."""

from __future__ import annotations

from receipt.markers import agent, tool

from billing_bot.llm import run_loop


@tool(dangerous=True)
def purge_stale_drafts(older_than_days: int = 30) -> int:
    """Delete draft invoices nobody touched for a while."""
    raise NotImplementedError


@agent(exported=False, model="gpt-5-mini")
def reconciler(report: str) -> str:
    """Reconcile the ledger against the payment provider's report."""
    return run_loop(report, tools=[purge_stale_drafts])
