from __future__ import annotations

from pydantic_ai import Agent

from library.deps import LibraryDeps
from library.prompts import LIBRARY_NAME, MAX_RENEWALS, TEMPLATE

librarian = Agent(
    "openai:gpt-4o",
    deps_type=LibraryDeps,
    instructions=TEMPLATE.format(library=LIBRARY_NAME, renewals=MAX_RENEWALS),
)
