from __future__ import annotations

from pydantic_ai import RunContext

from library.agent import librarian
from library.deps import LibraryDeps


@librarian.tool
async def loans(ctx: RunContext[LibraryDeps]) -> list[str]:
    """Books the member has on loan."""
    return []
