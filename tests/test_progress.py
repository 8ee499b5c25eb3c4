"""Progress of a run: a live line on a terminal (stderr a real pty), plain lines in CI, never a byte of
it in stdout or `--output`. The 2-second threshold is set in the child (0 = at once) so that no test
depends on how fast the machine is."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from receipt.cli.progress import TerminalProgress
from tests.helpers import GitRepoBuilder, run_cli

# The real `trace-diff` entry point, with the progress threshold given as the first argument.
PROBE = """
import sys
import receipt.cli.progress as progress
progress.SHOW_AFTER_S = float(sys.argv[1])
sys.argv = ["trace-diff", *sys.argv[2:]]
from receipt.cli import trace_diff_main
trace_diff_main()
"""

TOOLS = """
from receipt.markers import agent, tool

@tool(dangerous=True, approval="always")
def refund_order(order_id: str):
    '''Refund an order.'''

@agent(model="gpt-5")
def support(q):
    return refund_order(q)
"""


class TerminalRun:
    def __init__(self, code: int, stdout: str, terminal: str) -> None:
        self.code, self.stdout, self.terminal = code, stdout, terminal


def run_on_a_terminal(*args: str, show_after: float, tmp_path: Path, env: dict[str, str] | None = None) -> TerminalRun:
    """trace-diff with stderr on a pseudo-terminal and stdout piped to a file (`trace-diff ... > r.md`)."""
    master, slave = pty.openpty()
    full_env = {**os.environ, "RECEIPT_CACHE_DIR": "", **(env or {})}
    chunks: list[bytes] = []

    def read_terminal() -> None:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed its end of the terminal
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=read_terminal)
    reader.start()
    with open(tmp_path / "stdout", "wb") as stdout:
        proc = subprocess.run(
            [sys.executable, "-c", PROBE, str(show_after), *args], stdin=subprocess.DEVNULL, stdout=stdout, stderr=slave, env=full_env
        )
    os.close(slave)
    reader.join(timeout=30)
    os.close(master)
    return TerminalRun(proc.returncode, (tmp_path / "stdout").read_text(encoding="utf-8"), b"".join(chunks).decode("utf-8", "replace"))


@pytest.fixture
def repo(git_repo: GitRepoBuilder) -> GitRepoBuilder:
    git_repo.commit({"shop/tools.py": TOOLS, **{f"shop/lib{i}.py": f"def f{i}():\n    return {i}\n" for i in range(120)}})
    git_repo.commit({"shop/tools.py": TOOLS.replace('approval="always"', 'approval="never"')})
    return git_repo


def test_on_a_terminal_progress_counts_files_then_links_and_is_erased(repo: GitRepoBuilder, tmp_path: Path) -> None:
    plain = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), env={"RECEIPT_CACHE_DIR": ""})
    run = run_on_a_terminal("HEAD~1", "HEAD", "--repo", str(repo.path), show_after=0, tmp_path=tmp_path)
    assert run.code == plain.returncode == 1
    assert run.stdout == plain.stdout  # piped stdout: the markdown receipt, not one byte of progress
    assert "\x1b" not in run.stdout
    shown = run.terminal.split("\r\x1b[2K")
    assert shown[0] == "" and shown[-1] == ""  # each line redrawn in place, the last one erased
    assert "base: 0/121 files" in shown and "base: 100/121 files" in shown
    assert shown.index("base: linking") < shown.index("head: linking")
    assert all("\n" not in line for line in shown)


def test_progress_never_reaches_the_output_file(repo: GitRepoBuilder, tmp_path: Path) -> None:
    plain = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), env={"RECEIPT_CACHE_DIR": ""})
    run = run_on_a_terminal("HEAD~1", "HEAD", "--repo", str(repo.path), "--output", str(tmp_path / "r.md"), show_after=0, tmp_path=tmp_path)
    assert run.code == 1 and run.stdout == ""
    assert (tmp_path / "r.md").read_text(encoding="utf-8") == plain.stdout
    assert "head: linking" in run.terminal


def test_a_run_shorter_than_the_threshold_shows_nothing(repo: GitRepoBuilder, tmp_path: Path) -> None:
    run = run_on_a_terminal("HEAD~1", "HEAD", "--repo", str(repo.path), show_after=600, tmp_path=tmp_path)
    assert run.code == 1 and run.stdout.startswith("## Behavior receipt")
    assert run.terminal == ""


def test_an_error_after_progress_starts_on_a_clean_line(repo: GitRepoBuilder, tmp_path: Path) -> None:
    # A PATH absent at both revisions is reported once both surfaces were read.
    run = run_on_a_terminal("HEAD~1", "HEAD", "no/such/folder", "--repo", str(repo.path), show_after=0, tmp_path=tmp_path)
    assert run.code == 3 and run.stdout == ""
    assert "head: linking" in run.terminal
    progress, _, message = run.terminal.rpartition("\r\x1b[2K")
    assert progress and message.startswith("error: ") and "no/such/folder" in message


def test_a_long_step_is_shown_once_the_threshold_passes_without_a_new_message() -> None:
    terminal = io.StringIO()
    progress = TerminalProgress(show_after=0.05, stream=terminal)
    progress("base: 0/10 files")
    progress("base: linking")  # then nothing more for a while: linking a large program
    deadline = time.monotonic() + 30
    while not terminal.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    progress.end()
    assert terminal.getvalue() == "\r\x1b[2Kbase: linking\r\x1b[2K"


@pytest.mark.parametrize(
    ("env", "lines"),
    [
        ({"CI": "true"}, ["base: 0/121 files", "base: linking", "head: 0/121 files", "head: linking"]),
        ({"GITHUB_ACTIONS": "true"}, ["base: 0/121 files", "base: linking", "head: 0/121 files", "head: linking"]),
        ({"CI": "false"}, []),
    ],
)
def test_in_ci_a_few_plain_lines_on_stderr_only(repo: GitRepoBuilder, tmp_path: Path, env: dict[str, str], lines: list[str]) -> None:
    plain = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), env={"RECEIPT_CACHE_DIR": ""})
    ci = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "-o", str(tmp_path / "r.md"), env={"RECEIPT_CACHE_DIR": "", **env})
    assert ci.returncode == plain.returncode == 1
    assert ci.stdout == "" and (tmp_path / "r.md").read_text(encoding="utf-8") == plain.stdout
    assert ci.stderr.splitlines() == [f"behavior-receipt: {line}" for line in lines]
