from __future__ import annotations

from pydantic_ai import Agent

from library.deps import LibraryDeps
from library.prompts import LIBRARY, MAX_RENEWALS, TEMPLATE

librarian = Agent(
    "openai:gpt-4o",
    deps_type=LibraryDeps,
    instructions=TEMPLATE.format(library=LIBRARY, renewals=MAX_RENEWALS),
)
