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
    """The command is the process: it ends the process itself once its output is out, without the
    interpreter's teardown freeing, one object at a time, everything the run built and imported.

    A receipt of 1,500 files holds a few million objects (facts, pydantic's schemas): freeing them
    as the run returns and then again at exit was 50-100 ms of a 1-second incremental receipt. So
    the run keeps its facts (`receipt.retain`; a program is freed once linked: the memory bound
    comes first), the cyclic collector stays off from start to end (reference counting frees what
    the run drops; the few reference cycles it makes go with the process), and the process ends with `os._exit` after what a normal
    exit does that anyone can see: stdout and stderr flushed (an error there takes the normal exit,
    which reports it as before), exit handlers run. Other threads still running (none does
    today) also take the normal exit, which waits for them."""
    from receipt import retain

    gc.disable()
    retain.start()
    try:
        yield
    except SystemExit as e:
        _end_process(e.code)
        raise
    _end_process(0)


def _flushed() -> bool:
    """stdout and stderr flushed; False when one is closed or broken (the interpreter's exit then
    reports it, with its exit code)."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return False
    return True


def _end_process(code: object) -> None:
    """`os._exit` with the code `sys.exit(code)` gives, once a normal exit would have nothing left
    to do that anyone sees; returns (the caller exits normally) when it would."""
    import atexit
    import threading

    if code is None:
        status = 0
    elif isinstance(code, int) and not isinstance(code, bool):
        status = code & 0xFF
    else:
        return  # sys.exit("message") prints it: the interpreter's exit does that
    if any(t is not threading.main_thread() and t.is_alive() and not t.daemon for t in threading.enumerate()):
        return
    if not _flushed():
        return
    gc.freeze()  # an exit handler that allocates never starts a collection over the whole run
    atexit._run_exitfuncs()
    if _flushed():  # what the exit handlers wrote
        os._exit(status)


def main() -> None:
    _no_pydantic_plugins()
    with _exiting():
        configure_streams()
        app(prog_name="receipt")


def trace_diff_main() -> None:
    """`trace-diff BASE HEAD [PATH...]` is `receipt trace-diff BASE HEAD [PATH...]`."""
    import typer
    import typer.main

    _no_pydantic_plugins()
    with _exiting():
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
