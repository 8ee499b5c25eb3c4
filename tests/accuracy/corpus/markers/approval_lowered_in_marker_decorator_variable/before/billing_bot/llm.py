"""Provider-agnostic tool-calling loop (kept tiny on purpose)."""

from __future__ import annotations

from typing import Callable, Sequence


def run_loop(prompt: str, tools: Sequence[Callable[..., object]], max_turns: int = 8) -> str:
    raise NotImplementedError("wired to the provider in production")
