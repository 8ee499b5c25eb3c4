"""Catalogue search backend."""

from __future__ import annotations


def search(text: str, limit: int, in_stock_only: bool) -> list[dict]:
    return [{"name": text, "limit": limit, "in_stock_only": in_stock_only}]
