"""The shop's admin API, shared by every tool."""

from __future__ import annotations

import os

import httpx


def client() -> httpx.Client:
    return httpx.Client(base_url=os.environ.get("SHOP_API", "https://shop.internal/api"))
