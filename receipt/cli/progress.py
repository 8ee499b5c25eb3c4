"""Progress of a long run, on stderr only: never in stdout or `--output`, so receipts stay byte-identical.

- On a terminal: one line rewritten in place (files done / total, then linking), shown once the run
  has taken about 2 s (even if no new step starts then), and erased when the run ends or fails.
- In CI (`GITHUB_ACTIONS=true` or `CI` set, not a terminal): a few plain lines for the log, one when
  each phase starts (reading a revision's files, linking it).
- Anywhere else (pipes, logs, tests): nothing.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager
from typing import Iterator, Mapping, Protocol, TextIO

from receipt.cli.app import stderr_is_tty

SHOW_AFTER_S = 2.0


class Progress(Protocol):
    def __call__(self, msg: str) -> None: ...

    def end(self) -> None: ...


class TerminalProgress:
    """A live line. Messages before SHOW_AFTER_S are held; the latest one is drawn when that time
    comes (a timer, so a long step that sends nothing new is still shown)."""

    def __init__(self, show_after: float | None = None, stream: TextIO | None = None) -> None:
        self.start = time.monotonic()
        self.show_after = SHOW_AFTER_S if show_after is None else show_after
        self.stream = stream if stream is not None else sys.stderr
        self.shown = self.ended = False
        self.pending: str | None = None
        self.timer: threading.Timer | None = None
        self.lock = threading.Lock()

    def __call__(self, msg: str) -> None:
        with self.lock:
            if self.ended:
                return
            wait = self.show_after - (time.monotonic() - self.start)
            if self.shown or wait <= 0:
                self._draw(msg)
                return
            self.pending = msg
            if self.timer is None:
                self.timer = threading.Timer(wait, self._due)
                self.timer.daemon = True
                self.timer.start()

    def _due(self) -> None:
        with self.lock:
            if not self.ended and not self.shown and self.pending is not None:
                self._draw(self.pending)

    def _draw(self, msg: str) -> None:
        self.shown = True
        self.stream.write(f"\r\x1b[2K{msg}")
        self.stream.flush()

    def end(self) -> None:
        with self.lock:
            self.ended = True
            if self.timer is not None:
                self.timer.cancel()
            if self.shown:
                self.stream.write("\r\x1b[2K")
                self.stream.flush()


class LogProgress:
    """One plain line per phase: `base: 0/5016 files` starts reading, `base: linking` links."""

    def __init__(self) -> None:
        self.phase: tuple[str, str] | None = None

    def __call__(self, msg: str) -> None:
        phase = msg.rsplit(" ", 1)[-1]  # "files" or "linking", with the revision label before it
        label = msg.split(":", 1)[0] if ":" in msg else ""
        if (label, phase) == self.phase:
            return
        self.phase = (label, phase)
        sys.stderr.write(f"behavior-receipt: {msg}\n")
        sys.stderr.flush()

    def end(self) -> None:
        pass


class NoProgress:
    def __call__(self, msg: str) -> None:
        pass

    def end(self) -> None:
        pass


def in_ci(env: Mapping[str, str]) -> bool:
    """GitHub Actions, or any CI that sets `CI` (GitLab, CircleCI, Buildkite, ...; `CI=false` is not)."""
    return env.get("GITHUB_ACTIONS") == "true" or env.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def progress_for_stderr() -> Progress:
    if stderr_is_tty():
        return TerminalProgress()
    if in_ci(os.environ):
        return LogProgress()
    return NoProgress()


@contextmanager
def progress_on_stderr() -> Iterator[Progress]:
    """The progress for this run's stderr, ended (the live line erased) however the run ends, so an
    error message never lands after a half-drawn line."""
    progress = progress_for_stderr()
    try:
        yield progress
    finally:
        progress.end()
