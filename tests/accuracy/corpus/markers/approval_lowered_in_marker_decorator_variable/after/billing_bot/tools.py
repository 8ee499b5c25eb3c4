"""Tools the billing agent may call. Declared with behavior-receipt markers."""

from __future__ import annotations

from receipt.markers import tool

from billing_bot.ledger import Ledger
from billing_bot.policy import money_movement

_ledger = Ledger.from_env()


@tool(read_only=True, idempotent=True, open_world=False)
def lookup_invoice(invoice_id: str) -> dict:
    """Return the invoice with its line items and payment status."""
    return _ledger.invoice(invoice_id)


@money_movement
def refund(invoice_id: str, amount_cents: int, reason: str = "customer request") -> str:
    """Refund part or all of a paid invoice to the original payment method."""
    return _ledger.refund(invoice_id, amount_cents, reason=reason)
