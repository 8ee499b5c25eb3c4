"""Thin client for the ticket tracker."""

from __future__ import annotations

import os

import httpx


class Tracker:
    def __init__(self) -> None:
        self._http = httpx.Client(base_url=os.environ.get("TRACKER_URL", "http://tracker.internal"))

    def search(self, query: dict, limit: int) -> list[dict]:
        return self._http.get("/tickets", params={**query, "limit": limit}).json()


tracker = Tracker()
