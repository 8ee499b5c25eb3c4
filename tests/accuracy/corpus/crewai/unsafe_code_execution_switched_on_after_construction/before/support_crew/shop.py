"""Client for the shop's admin API."""

from __future__ import annotations

import os

import httpx


class Shop:
    def __init__(self) -> None:
        self._http = httpx.Client(base_url=os.environ.get("SHOP_API", "https://shop.internal/api"))

    def order(self, order_id: str) -> str:
        return self._http.get(f"/orders/{order_id}").text

    def refund(self, order_id: str, amount: float) -> str:
        return self._http.post(f"/orders/{order_id}/refunds", json={"amount": amount}).text


shop = Shop()
