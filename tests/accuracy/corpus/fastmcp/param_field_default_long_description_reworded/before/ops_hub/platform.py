"""Client for the internal deployment platform."""

from __future__ import annotations

import os

import httpx


class Platform:
    def __init__(self) -> None:
        self._http = httpx.Client(base_url=os.environ.get("PLATFORM_URL", "http://platform.internal"))

    def status(self, service: str) -> dict:
        return self._http.get(f"/services/{service}").json()

    def rollback(self, service: str, version: str) -> str:
        return self._http.post(f"/services/{service}/rollback", json={"version": version}).json()["id"]

    def error_rate(self, service: str, window: int) -> float:
        return self._http.get(f"/services/{service}/errors", params={"window": window}).json()["rate"]


platform = Platform()
