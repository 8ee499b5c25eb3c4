"""Errors that map onto the documented exit codes. Raised at the edges, turned into one line by the CLI."""

from __future__ import annotations

EXIT_OK = 0
EXIT_FINDINGS = 1  # findings at or above --fail-on, or verification failed
EXIT_USAGE = 2  # usage or configuration error
EXIT_GIT = 3  # git or extraction error
EXIT_OUTPUT = 4  # the output could not be written (disk full, I/O error, unwritable --output)
EXIT_PIPE_CLOSED = 141  # the reader closed the pipe (`| head`): nothing more is printed, as a shell reports SIGPIPE


class ReceiptError(Exception):
    """An error the user can act on; `str(e)` is the one-line message."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, *, hint: str | None = None):
        super().__init__(message)
        self.hint = hint  # an extra line, e.g. the exact `git fetch` command that fixes it


class UsageError(ReceiptError):
    exit_code = EXIT_USAGE


class ConfigError(ReceiptError):
    exit_code = EXIT_USAGE


class KeyError_(ReceiptError):
    """Malformed, unreadable or wrong-type key. Never carries key material in its message."""

    exit_code = EXIT_USAGE


class GitError(ReceiptError):
    exit_code = EXIT_GIT


class ExtractionFailure(ReceiptError):
    exit_code = EXIT_GIT


class OutputError(ReceiptError):
    """Writing the result failed: one line naming what could not be written, never a traceback."""

    exit_code = EXIT_OUTPUT


class VerificationFailed(ReceiptError):
    exit_code = EXIT_FINDINGS

    def __init__(self, check: str, message: str):
        super().__init__(f"verification failed at {check}: {message}")
        self.check = check
