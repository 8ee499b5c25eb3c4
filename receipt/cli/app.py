"""The typer application and the shared plumbing of every command (errors -> one line + exit code)."""

from __future__ import annotations

import functools
import os
import sys
from typing import Any, Callable, TypeVar

import typer

from receipt.errors import EXIT_GIT, ReceiptError

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


def fail(message: str, code: int, hint: str | None = None) -> None:
    typer.echo(f"error: {message}", err=True)
    if hint:
        typer.echo(hint, err=True)
    raise typer.Exit(code)


def handles_errors(fn: F) -> F:
    """Turn ReceiptError (and anything unexpected) into one stderr line and the documented exit code."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
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
