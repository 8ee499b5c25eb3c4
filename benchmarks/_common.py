"""Shared helpers for the hand-run benchmarks: where generated data lives, timing, tables.

Benchmarks print figures; they assert nothing. Generated repositories go under `benchmarks/.work/`
(gitignored) so they are never committed.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent
WORK = HERE / ".work"

T = TypeVar("T")

if str(PROJECT) not in sys.path:  # run as `python benchmarks/x.py` from a checkout
    sys.path.insert(0, str(PROJECT))


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def timed_cpu(fn: Callable[[], T]) -> tuple[float, float, T]:
    """(wall s, CPU s, result): CPU time stays meaningful when other work shares the machine."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - t0, time.process_time() - c0, out


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def mb(n_bytes: float) -> float:
    return n_bytes / 1_000_000


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain GitHub-markdown table (pastes straight into benchmarks/README.md)."""
    cells = [[str(c) for c in headers], *[[str(c) for c in r] for r in rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(r: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"

    out = [line(cells[0]), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(r) for r in cells[1:]]
    return "\n".join(out)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def project_commit() -> str:
    """The behavior-receipt commit being measured (and whether the tree had local edits).

    A snapshot made with `git archive` has no .git: its commit is read from `.bench-commit`.
    """
    stamp = PROJECT / ".bench-commit"
    if stamp.exists() and not (PROJECT / ".git").exists():
        return stamp.read_text().strip()[:12] + " (snapshot)"
    try:
        sha = git(PROJECT, "rev-parse", "--short=12", "HEAD")
        dirty = git(PROJECT, "status", "--porcelain", "--untracked-files=no", "--", "receipt")
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown"
    return sha + (" (+ local edits in receipt/)" if dirty else "")


def machine() -> str:
    return f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, {sys.platform}"
