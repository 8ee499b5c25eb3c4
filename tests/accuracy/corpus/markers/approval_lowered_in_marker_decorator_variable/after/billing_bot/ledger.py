"""Thin client for the internal ledger service."""

from __future__ import annotations

import os

import httpx


class Ledger:
    def __init__(self, base_url: str, token: str) -> None:
        self._http = httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {token}"})

    @classmethod
    def from_env(cls) -> "Ledger":
        return cls(os.environ["LEDGER_URL"], os.environ["LEDGER_TOKEN"])

    def invoice(self, invoice_id: str) -> dict:
        return self._http.get(f"/invoices/{invoice_id}").json()

    def refund(self, invoice_id: str, amount_cents: int, *, reason: str) -> str:
        r = self._http.post(f"/invoices/{invoice_id}/refunds", json={"amount": amount_cents, "reason": reason})
        r.raise_for_status()
        return r.json()["refund_id"]
