
from __future__ import annotations

import httpx
from crewai.tools import tool


@tool("Fetch URL")
def fetch_url(url: str) -> str:
    """Download a web page and return its text."""
    return httpx.get(url, timeout=20).text


@tool("Write Report")
def write_report(filename: str, markdown: str) -> str:
    """Write the report to the shared reports folder."""
    with open(f"reports/{filename}", "w", encoding="utf-8") as f:
        f.write(markdown)
    return filename
