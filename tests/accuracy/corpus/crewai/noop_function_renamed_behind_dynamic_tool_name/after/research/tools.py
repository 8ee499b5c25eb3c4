from __future__ import annotations

import os

from crewai.tools import tool


@tool(os.environ.get("LOOKUP_TOOL", "Paper lookup"))
def lookup_paper(title: str) -> str:
    """Find a paper by title."""
    return title
