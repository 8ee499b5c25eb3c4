"""The CLI ends its process itself once the output is out (receipt.cli._exiting): what a user sees of
a normal exit stays (the whole output, even past a pipe's buffer; the exit code; exit handlers run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers import GitRepoBuilder, run_cli

# The console script as it runs, with an exit handler of the embedding program's own.
PROBE = """
import atexit, sys
marker = sys.argv[1]
atexit.register(lambda: open(marker, "w").write("ran"))
sys.argv = ["trace-diff", *sys.argv[2:]]
from receipt.cli import trace_diff_main
trace_diff_main()
"""

TOOL = '''
from receipt.markers import agent, tool

@tool(dangerous=True, approval="{approval}")
def refund_{n}(order_id: str) -> str:
    """Refund order {n}: {padding}"""
    return order_id

@agent(model="gpt-5")
def support_{n}(q):
    return refund_{n}(q)
'''


def _repo(tmp_path: Path, tools: int) -> GitRepoBuilder:
    repo = GitRepoBuilder(tmp_path / "repo")
    padding = "x" * 400
    repo.commit({f"shop/t{n}.py": TOOL.format(n=n, approval="always", padding=padding) for n in range(tools)})
    repo.commit({f"shop/t{n}.py": TOOL.format(n=n, approval="never", padding=padding) for n in range(tools)})
    return repo


def test_exit_handlers_run_and_the_exit_code_is_the_verdicts(tmp_path: Path) -> None:
    repo = _repo(tmp_path, 2)
    marker = tmp_path / "marker"
    p = subprocess.run(
        [sys.executable, "-c", PROBE, str(marker), "HEAD~1", "HEAD", "--repo", str(repo.path)], capture_output=True, text=True
    )
    assert p.returncode == 1, p.stderr  # approval lowered: a regression
    assert p.stderr == "" and "**FAIL**" in p.stdout and p.stdout.endswith("\n")
    assert marker.read_text() == "ran"
    p = subprocess.run([sys.executable, "-c", PROBE, str(marker), "HEAD~1", "--repo", str(repo.path)], capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.strip()  # a usage error keeps its own code and message


def test_an_output_larger_than_a_pipe_reaches_the_reader_whole(tmp_path: Path) -> None:
    repo = _repo(tmp_path, 60)
    out = tmp_path / "receipt.json"
    args = ("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--format", "json", "--include-surfaces")
    written = run_cli(*args, "--output", str(out))
    piped = run_cli(*args)
    assert written.returncode == piped.returncode == 1, piped.stderr
    text = out.read_text(encoding="utf-8")
    assert len(text.encode()) > 1 << 16  # more than a Linux pipe holds at once
    assert piped.stdout == text
    assert sum(c["id"] == "tool.approval_lowered" for c in json.loads(text)["changes"]) == 60
