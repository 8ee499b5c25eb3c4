"""The typer application and the shared plumbing of every command (errors -> one line + exit code)."""

from __future__ import annotations

import functools
import os
import sys
from typing import Any, Callable, TypeVar

import typer

from receipt.errors import EXIT_GIT, EXIT_PIPE_CLOSED, OutputError, ReceiptError

app = typer.Typer(
    name="receipt",
    help=(
        "Signed, deterministic behavior receipts: what a change does to the agents and tools "
        "your code exposes, read statically from git (nothing is imported or executed)."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

F = TypeVar("F", bound=Callable[..., Any])


def print_version(value: bool) -> None:
    if value:
        from receipt import __version__

        typer.echo(f"behavior-receipt {__version__}")
        raise typer.Exit(0)


@app.callback()
def _options(
    version: bool = typer.Option(False, "--version", callback=print_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """Signed, deterministic behavior receipts: what a change does to the agents and tools your code
    exposes, read statically from git (nothing is imported or executed)."""


def fail(message: str, code: int, hint: str | None = None) -> None:
    typer.echo(f"error: {message}", err=True)
    if hint:
        typer.echo(hint, err=True)
    raise typer.Exit(code)


def configure_streams() -> None:
    """UTF-8 on stdout and stderr whatever the locale (LC_ALL=C, PYTHONIOENCODING=cp1252): the
    receipt is the same bytes everywhere, and a non-ASCII tool name never fails a run. Unencodable
    code points (lone surrogates from analysed code) are escaped rather than fatal."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(encoding="utf-8", errors="backslashreplace")
            except (ValueError, OSError):  # pragma: no cover - a stream replaced by the caller
                pass


def emit(text: str) -> None:
    """Write to stdout and flush, so that a write error is reported here, with its own exit code."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as e:
        raise OutputError(f"cannot write the output: {e.strerror or type(e).__name__}") from None


def _flush_stdout() -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as e:
        raise OutputError(f"cannot write the output: {getattr(e, 'strerror', None) or type(e).__name__}") from None


def _pipe_closed() -> None:
    """The reader went away (`trace-diff ... | head`): stop quietly, as `git log | head` does."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's final flush must not complain
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass
    raise typer.Exit(EXIT_PIPE_CLOSED)


def handles_errors(fn: F) -> F:
    """Turn ReceiptError (and anything unexpected) into one stderr line and the documented exit code."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            try:
                return fn(*args, **kwargs)
            finally:
                _flush_stdout()  # buffered output fails here, not at interpreter exit
        except BrokenPipeError:
            _pipe_closed()
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except ReceiptError as e:
            fail(str(e), e.exit_code, e.hint)
        except KeyboardInterrupt:
            fail("interrupted", 130)
        except Exception as e:  # noqa: BLE001 - the contract is "never a traceback"
            if os.environ.get("RECEIPT_DEBUG"):
                raise
            fail(f"internal error: {type(e).__name__}: {e} (set RECEIPT_DEBUG=1 for a traceback)", EXIT_GIT)

    return wrapper  # type: ignore[return-value]


def stderr_is_tty() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
