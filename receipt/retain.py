"""What a one-shot process keeps until it ends, instead of freeing it when a run is done with it.

Freeing the facts of a 1,500-file receipt (every module of both revisions), one object at a time,
is tens of milliseconds that a process about to end need not spend (the CLI ends with `os._exit`, see
`receipt.cli._exiting`). Only the CLI turns this on: a library caller running receipts in a loop
keeps nothing."""

from __future__ import annotations

_kept: list[object] | None = None


def start() -> None:
    """From now on, `until_exit` keeps what it is given (for a process that ends without freeing)."""
    global _kept
    if _kept is None:
        _kept = []


def until_exit(*objects: object) -> None:
    """Keep `objects` alive to the end of the process, when `start` was called; else nothing."""
    if _kept is not None:
        _kept.extend(objects)
