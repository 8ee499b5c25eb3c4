from __future__ import annotations

import os

import httpx

_api = httpx.Client(base_url=os.environ.get("BILLING_API", "https://billing.internal"))


def post(path: str, payload: dict) -> dict:
    return _api.post(path, json=payload).json()


def get(path: str) -> dict:
    return _api.get(path).json()
