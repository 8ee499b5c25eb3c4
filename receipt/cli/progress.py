"""Progress of a long run, on stderr only: never in stdout or `--output`, so receipts stay byte-identical.

- On a terminal: one line rewritten in place (files done / total, then linking), shown only once
  the run has taken about 2 s, and erased when it ends.
- In GitHub Actions (`GITHUB_ACTIONS=true`, not a terminal): a few plain lines for the log, one when
  each phase starts (reading a revision's files, linking it).
- Anywhere else (pipes, logs, tests): nothing.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Callable

from receipt.cli.app import stderr_is_tty

SHOW_AFTER_S = 2.0


class TerminalProgress:
    def __init__(self, show_after: float = SHOW_AFTER_S) -> None:
        self.start = time.monotonic()
        self.show_after = show_after
        self.shown = False

    def __call__(self, msg: str) -> None:
        if not self.shown and time.monotonic() - self.start < self.show_after:
            return
        self.shown = True
        sys.stderr.write(f"\r\x1b[2K{msg}")
        sys.stderr.flush()

    def end(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()


class LogProgress:
    """One plain line per phase: `base: 0/5016 files` starts reading, `base: linking` links."""

    def __init__(self) -> None:
        self.phase: str | None = None

    def __call__(self, msg: str) -> None:
        phase = msg.rsplit(" ", 1)[-1]  # "files" or "linking", with the revision label before it
        label = msg.split(":", 1)[0] if ":" in msg else ""
        if (label, phase) == self.phase:
            return
        self.phase = (label, phase)  # type: ignore[assignment]
        sys.stderr.write(f"behavior-receipt: {msg}\n")
        sys.stderr.flush()

    def end(self) -> None:
        pass


class NoProgress:
    def __call__(self, msg: str) -> None:
        pass

    def end(self) -> None:
        pass


def progress_for_stderr() -> Callable[[str], None]:
    if stderr_is_tty():
        return TerminalProgress()
    if os.environ.get("GITHUB_ACTIONS") == "true":
        return LogProgress()
    return NoProgress()
