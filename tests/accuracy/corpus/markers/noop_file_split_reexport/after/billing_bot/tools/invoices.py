from __future__ import annotations

from receipt.markers import tool

from billing_bot.tools._shared import ledger


@tool(read_only=True, idempotent=True, open_world=False)
def lookup_invoice(invoice_id: str) -> dict:
    """Return the invoice with its line items and payment status."""
    return ledger.invoice(invoice_id)
