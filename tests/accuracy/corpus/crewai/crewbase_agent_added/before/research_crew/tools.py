from __future__ import annotations

import httpx
from crewai.tools import tool


@tool("Fetch URL")
def fetch_url(url: str) -> str:
    """Download a web page and return its text."""
    return httpx.get(url, timeout=20).text
