"""Deployment settings, read at start-up from the platform's settings service."""

from __future__ import annotations

import os

import httpx


class Deployment:
    def __init__(self) -> None:
        self._flags = httpx.get(os.environ.get("SETTINGS_URL", "https://settings.internal/flags")).json()

    def flag(self, name: str, fallback: bool) -> bool:
        return bool(self._flags.get(name, fallback))


deployment = Deployment()
