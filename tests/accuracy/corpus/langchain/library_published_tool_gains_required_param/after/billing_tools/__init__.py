"""LangChain tools for the billing API: `from billing_tools import send_invoice`."""

from billing_tools.invoices import list_invoices, send_invoice

VERSION = "1.4.0"
