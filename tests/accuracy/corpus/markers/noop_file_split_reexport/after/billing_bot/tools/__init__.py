"""Billing tools, one module per area."""

from billing_bot.tools.invoices import lookup_invoice
from billing_bot.tools.refunds import refund

__all__ = ["lookup_invoice", "refund"]
