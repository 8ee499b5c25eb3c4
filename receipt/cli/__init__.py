"""Command-line entry points: `receipt ...` and the `trace-diff` alias (one implementation)."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import types
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


def _no_pydantic_plugins() -> None:
    """Pydantic plugins installed in the environment never see or shape the receipt's models (the
    environment decides nothing); and looking them up read every installed package's metadata.

    Pydantic's plugin loader answers "none" to that variable, but importing it imports
    importlib.metadata (email, zipfile, csv...: ~15 ms of every run) to find plugins it then never
    looks for. A loader that finds none stands in for it: the same answer, without that import."""
    os.environ["PYDANTIC_DISABLE_PLUGINS"] = "__all__"
    if "pydantic.plugin._loader" not in sys.modules:
        loader = types.ModuleType("pydantic.plugin._loader", "No pydantic plugins (receipt.cli._no_pydantic_plugins).")
        loader.get_plugins = lambda: ()  # type: ignore[attr-defined]
        loader.__getattr__ = _real_plugin_loader  # type: ignore[attr-defined]
        sys.modules["pydantic.plugin._loader"] = loader


def _real_plugin_loader(name: str) -> object:
    """Anything else a pydantic version asks of its plugin loader comes from the real one, imported
    then (it still finds no plugins: the variable above turns them off)."""
    import importlib

    if name.startswith("__"):
        raise AttributeError(name)
    sys.modules.pop("pydantic.plugin._loader", None)
    return getattr(importlib.import_module("pydantic.plugin._loader"), name)


@contextlib.contextmanager
def _exiting() -> Iterator[None]:
    """The command ends the process: what it imported and built is moved out of the collector's
    sight (gc.freeze) before the interpreter exits, so the final collection at exit no longer walks
    every object of pydantic's schemas, typer and the run (~40-50 ms of an identical rerun's CPU).
    Nothing is skipped: exit handlers, flushing and closing happen as before."""
    try:
        yield
    finally:
        gc.freeze()


def main() -> None:
    _no_pydantic_plugins()
    with _exiting(), _no_cyclic_gc():
        configure_streams()
        app(prog_name="receipt")


def trace_diff_main() -> None:
    """`trace-diff BASE HEAD [PATH...]` is `receipt trace-diff BASE HEAD [PATH...]`."""
    import typer
    import typer.main

    _no_pydantic_plugins()
    with _exiting(), _no_cyclic_gc():
        configure_streams()
        if sys.argv[1:] == ["--version"]:
            from receipt.cli.app import print_version

            try:
                print_version(True)
            except typer.Exit:
                return
        # That one command built, not the whole application (every command's parameters).
        info = next(c for c in app.registered_commands if c.name == "trace-diff")
        command = typer.main.get_command_from_info(info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode)
        command.main(args=sys.argv[1:], prog_name="trace-diff")
