"""A scan that recognises no agent or tool says so, instead of a quiet green "no changes"."""

from __future__ import annotations

import json

from tests.helpers import GitRepoBuilder, run_cli

PLAIN = "def add(a: int, b: int) -> int:\n    return a + b\n"
TOOL = """
from receipt.markers import agent, tool

@tool(read_only=True)
def lookup(order_id: str):
    '''Look an order up.'''

@agent
def support(q):
    return lookup(q)
"""


def test_nothing_recognised_under_the_given_paths_is_stated(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"src/util.py": PLAIN, "agents/tools.py": TOOL}, "v1")
    git_repo.commit({"src/util.py": PLAIN + "\n# tweak\n", "agents/tools.py": TOOL}, "v2")
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "src", "--repo", str(git_repo.path))
    assert out.returncode == 0, out.stderr
    assert "nothing recognised under src" in out.stdout
    assert "no changes to the exported agent surface" not in out.stdout
    data = json.loads(run_cli("trace-diff", "HEAD~1", "HEAD", "src", "--repo", str(git_repo.path), "--format", "json").stdout)
    assert data["nothing_recognised"] is True and "nothing-recognised" in data["verdict"]["flags"]
    assert data["changes"] == []


def test_a_recognised_surface_keeps_the_plain_no_changes_line(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"agents/tools.py": TOOL}, "v1")
    git_repo.commit({"agents/tools.py": TOOL + "\n# comment\n"}, "v2")
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path))
    assert "no changes to the exported agent surface" in out.stdout
    assert "nothing recognised" not in out.stdout


def test_everything_removed_still_lists_the_removals_and_says_nothing_is_left(git_repo: GitRepoBuilder) -> None:
    git_repo.commit({"agents/tools.py": TOOL}, "v1")
    git_repo.commit({"agents/tools.py": PLAIN}, "v2")
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path))
    data = json.loads(run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path), "--format", "json").stdout)
    assert sorted(c["id"] for c in data["changes"]) == ["agent.removed", "tool.removed"]
    assert "At head: nothing recognised in the whole tree" in out.stdout
