"""Reading web pages for the crew."""

from __future__ import annotations

import httpx
from crewai.tools import tool


@tool("Fetch page text")
def fetch_page(url: str) -> str:
    """Fetch a web page and return its text."""
    return httpx.get(url, timeout=30).text
