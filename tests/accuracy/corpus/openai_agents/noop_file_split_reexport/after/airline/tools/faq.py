from __future__ import annotations

from agents import function_tool

from airline import reservations


@function_tool(name_override="faq_lookup_tool", description_override="Lookup frequently asked questions.")
async def faq_lookup(question: str) -> str:
    return reservations.faq_answer(question)
