"""Invoice tools."""

from __future__ import annotations

from langchain_core.tools import tool

from billing_tools import _api


@tool
def list_invoices(customer_id: str) -> dict:
    """List a customer's open invoices."""
    return _api.get(f"/customers/{customer_id}/invoices")


@tool
def send_invoice(invoice_id: str) -> dict:
    """Email an invoice to the customer it is addressed to."""
    return _api.post(f"/invoices/{invoice_id}/send", {})


def _format(invoice: dict) -> str:
    return f"{invoice['number']}: {invoice['total']} EUR"


@tool
def void_invoice(invoice_id: str) -> dict:
    """Cancel an invoice that was sent by mistake."""
    return _api.post(f"/invoices/{invoice_id}/void", {})
