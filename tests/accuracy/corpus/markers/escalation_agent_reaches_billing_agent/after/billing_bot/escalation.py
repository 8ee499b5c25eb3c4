from __future__ import annotations

from receipt.markers import agent

from billing_bot.agent import billing_agent


@agent(model="gpt-5", trust="human_required")
def escalation_agent(ticket: str) -> str:
    """Handle tickets a human flagged; consult the billing agent for invoice facts."""
    return billing_agent(f"Summarise the invoices relevant to: {ticket}")
