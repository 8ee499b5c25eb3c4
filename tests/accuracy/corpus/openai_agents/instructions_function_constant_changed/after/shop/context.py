from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ShopContext:
    customer_name: str | None = None
    tier: str = "standard"
