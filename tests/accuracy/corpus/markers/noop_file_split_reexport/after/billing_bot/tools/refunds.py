from __future__ import annotations

from receipt.markers import tool

from billing_bot.tools._shared import ledger


@tool(dangerous=True, approval="always")
def refund(invoice_id: str, amount_cents: int, reason: str = "customer request") -> str:
    """Refund part or all of a paid invoice to the original payment method."""
    return ledger.refund(invoice_id, amount_cents, reason=reason)
