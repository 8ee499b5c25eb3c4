"""Reading web pages for the crew."""

from __future__ import annotations

import httpx
from crewai.tools import tool


@tool("Scrape website content")
def scrape_website(url: str) -> str:
    """Fetch a web page and return its visible text."""
    return httpx.get(url, timeout=30).text
