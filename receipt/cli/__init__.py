"""Command-line entry points: `receipt ...` and the `trace-diff` alias (one implementation)."""

from __future__ import annotations

import contextlib
import gc
import sys
from typing import Iterator

from receipt.cli.app import app, configure_streams

# Each module registers its commands on `app`; keep one module per area so they stay independent.
from receipt.cli import engine as _engine  # noqa: F401,E402  trace-diff, surface, explain, demo
from receipt.cli import traces as _traces  # noqa: F401,E402  traces summarize

try:  # signing and CI land as separate modules; the engine works without them
    import receipt.cli.signing as _signing  # noqa: F401,E402  keygen, verify
except ModuleNotFoundError as _e:  # pragma: no cover - only while a module is absent
    if _e.name != "receipt.cli.signing":
        raise
try:
    import receipt.cli.ci as _ci  # noqa: F401,E402  ci
except ModuleNotFoundError as _e:  # pragma: no cover
    if _e.name != "receipt.cli.ci":
        raise


@contextlib.contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """A command is one short process: reference counting frees what it drops, and the few
    reference cycles it makes (imports, a receipt's ~4,000 objects) go when it exits. Without this,
    the collector ran full passes over the imported modules and, once a run re-enabled it (see
    `receipt.extract.gc_quiet_run`), over everything the run built: a tenth of an identical
    rerun's CPU. Restored for in-process callers (tests)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def main() -> None:
    with _no_cyclic_gc():
        configure_streams()
        app(prog_name="receipt")


def trace_diff_main() -> None:
    """`trace-diff BASE HEAD [PATH...]` is `receipt trace-diff BASE HEAD [PATH...]`."""
    import typer
    import typer.main

    with _no_cyclic_gc():
        configure_streams()
        if sys.argv[1:] == ["--version"]:
            from receipt.cli.app import print_version

            try:
                print_version(True)
            except typer.Exit:
                return
        command = typer.main.get_command(app).commands["trace-diff"]  # type: ignore[attr-defined]
        command.main(args=sys.argv[1:], prog_name="trace-diff")
