"""Invoice tools."""

from __future__ import annotations

from langchain_core.tools import tool

from billing_tools import _api


@tool
def list_invoices(customer_id: str) -> dict:
    """List a customer's open invoices."""
    return _api.get(f"/customers/{customer_id}/invoices")


@tool
def send_invoice(invoice_id: str, to: str) -> dict:
    """Email an invoice to the customer it is addressed to."""
    return _api.post(f"/invoices/{invoice_id}/send", {"to": to})


def _format(invoice: dict) -> str:
    return f"{invoice['number']}: {invoice['total']} EUR"
