"""Deployment overrides of the support settings."""

from shop.tools import lookup_order, refund_order

SUPPORT_TOOLS = [lookup_order, refund_order]
