"""Fake database for the example; the real one is an async Postgres pool."""

from __future__ import annotations


class DatabaseConn:
    async def customer_name(self, *, id: int) -> str | None:
        return "John" if id == 123 else None

    async def customer_balance(self, *, id: int, include_pending: bool) -> float:
        return 123.45 if id == 123 else 0.0

    async def block_card(self, *, id: int) -> None:
        return None
