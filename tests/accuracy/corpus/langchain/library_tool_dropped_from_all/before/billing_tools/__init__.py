"""LangChain tools for the billing API: `from billing_tools import send_invoice`."""

from billing_tools.invoices import list_invoices, send_invoice, void_invoice

__all__ = ["list_invoices", "send_invoice", "void_invoice"]
