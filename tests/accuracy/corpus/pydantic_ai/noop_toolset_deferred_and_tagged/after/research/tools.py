
from __future__ import annotations

import httpx
from pydantic_ai import FunctionToolset, RunContext, Tool


async def search_web(query: str, max_results: int = 5) -> list[str]:
    """Search the web and return result URLs."""
    async with httpx.AsyncClient() as client:
        r = await client.get("https://search.internal/api", params={"q": query, "n": max_results})
        return r.json()["urls"]


async def fetch_page(url: str) -> str:
    """Download a page and return its text."""
    async with httpx.AsyncClient() as client:
        return (await client.get(url)).text


def save_note(ctx: RunContext[str], title: str, text: str) -> str:
    """Save a research note in the user's notebook."""
    return f"{ctx.deps}/{title}"


notes = FunctionToolset(tools=[save_note])
