"""Native markers: declare what no framework can, with zero runtime cost and zero dependencies.

    from receipt.markers import agent, tool, replayable, deterministic

    @agent                                     # an exported agent
    @agent(trust="human_required", model="gpt-5")
    @tool(dangerous=True, approval="always", read_only=False, idempotent=False)
    @replayable                                # stackable on agents; so is @deterministic

behavior-receipt reads these statically (it never imports your code); at run time they return the
decorated object unchanged. This module must stay importable without the CLI's dependencies.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar, overload

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["agent", "tool", "prompt", "replayable", "deterministic"]


def _marker(kind: str) -> Any:
    @overload
    def mark(fn: F, /) -> F: ...
    @overload
    def mark(fn: None = None, /, **attributes: Any) -> Callable[[F], F]: ...

    def mark(fn: Any = None, /, **attributes: Any) -> Any:
        def apply(f: F) -> F:
            try:
                setattr(f, f"__receipt_{kind}__", dict(attributes))
            except (AttributeError, TypeError):  # builtins and slotted objects: declaration stays static-only
                pass
            return f

        return apply(fn) if fn is not None else apply

    mark.__name__ = kind
    mark.__doc__ = f"Mark a function as {kind} for behavior-receipt (static declaration; no runtime effect)."
    return mark


agent = _marker("agent")
tool = _marker("tool")
prompt = _marker("prompt")
replayable = _marker("replayable")
deterministic = _marker("deterministic")
