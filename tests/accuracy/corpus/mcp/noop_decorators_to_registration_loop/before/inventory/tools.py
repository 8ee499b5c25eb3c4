"""Inventory tools."""

from __future__ import annotations


def stock_level(sku: str) -> int:
    """Units in stock for a SKU."""
    return 0


def reserve(sku: str, quantity: int = 1) -> str:
    """Reserve units of a SKU for an order."""
    return "r-1"
