"""Runs that reuse earlier work (a cached base, an identical rerun) give the receipt a cold run gives.

Real git repositories in temp dirs; each receipt computed three ways with the real cache on disk:
cold (empty cache), incremental (the base's surface computed before, as a push to the default
branch leaves it) and an identical rerun. The changes are chosen where reuse could go wrong: a
module others import from, and reach that goes through a package's re-export.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from receipt.gitsource import GitRepo
from receipt.pipeline import build_receipt, build_surface
from receipt.render import render_json, render_markdown
from tests.helpers import GitRepoBuilder

SETTINGS = 'GATE = "always"\n'
TOOLS = """
from receipt.markers import tool
from shop.settings import GATE

@tool(dangerous=True, approval=GATE)
def refund(order_id: str):
    '''Refund an order.'''

@tool(read_only=True)
def lookup(order_id: str):
    '''Look an order up.'''
"""
ALT = """
from receipt.markers import tool

@tool(dangerous=True)
def force_refund(order_id: str):
    '''Refund without asking anyone.'''
"""
PACKAGE = "from shop.tools import refund, lookup\n"
AGENT = """
from receipt.markers import agent
from shop import lookup, refund

@agent(model="gpt-5")
def support(q):
    lookup(q)
    return refund(q)
"""


def _text(repo: Path, base: str, head: str) -> str:
    r = build_receipt(repo, base, head, today=None)
    return render_markdown(r) + "\0" + render_json(r)


def _three_ways(repo: Path, base: str, head: str, cache_root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, str]:
    monkeypatch.setenv("RECEIPT_TODAY", "2026-01-01")
    cache_root.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(cache_root / f"cold-{base}-{head}"))
    cold = _text(repo, base, head)
    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(cache_root / f"incremental-{base}-{head}"))
    build_surface(GitRepo(repo), base)  # the base computed before, head never seen
    incremental = _text(repo, base, head)
    rerun = _text(repo, base, head)  # both revisions seen before
    return cold, incremental, rerun


@pytest.fixture
def shop(git_repo: GitRepoBuilder) -> GitRepoBuilder:
    git_repo.commit(
        {"shop/__init__.py": PACKAGE, "shop/settings.py": SETTINGS, "shop/tools.py": TOOLS, "shop/alt.py": ALT, "shop/agent.py": AGENT},
        "v1",
    )
    return git_repo


def test_a_change_in_a_module_others_import_from_is_reported_the_same_with_a_cached_base(
    shop: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shop.commit({"shop/settings.py": 'GATE = "never"\n'})  # tools.py itself is untouched
    cold, incremental, rerun = _three_ways(shop.path, "HEAD~1", "HEAD", tmp_path / "caches", monkeypatch)
    assert "tool.approval_lowered" in cold and "refund" in cold
    assert incremental == cold
    assert rerun == cold


def test_reach_changed_through_a_reexport_is_reported_the_same_with_a_cached_base(
    shop: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Only the package's re-export changes: the agent now reaches another, ungated refund.
    shop.commit({"shop/__init__.py": "from shop.alt import force_refund as refund\nfrom shop.tools import lookup\n"})
    cold, incremental, rerun = _three_ways(shop.path, "HEAD~1", "HEAD", tmp_path / "caches", monkeypatch)
    assert "force_refund" in cold.split("\0")[1]  # the JSON receipt names what the agent reaches now
    assert cold != _text(shop.path, "HEAD", "HEAD")  # it is a change, not a no-op
    assert incremental == cold
    assert rerun == cold


def test_a_cached_surface_of_one_pair_never_answers_for_another(
    shop: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shop.commit({"shop/settings.py": 'GATE = "never"\n'})
    shop.commit({"shop/__init__.py": "from shop.alt import force_refund as refund\nfrom shop.tools import lookup\n"})
    shop.commit({"shop/settings.py": SETTINGS, "shop/__init__.py": PACKAGE})  # back to v1's behaviour
    monkeypatch.setenv("RECEIPT_TODAY", "2026-01-01")
    pairs = [("HEAD~3", "HEAD~2"), ("HEAD~2", "HEAD~1"), ("HEAD~1", "HEAD"), ("HEAD~3", "HEAD"), ("HEAD~2", "HEAD")]
    cold = {}
    for base, head in pairs:
        monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / f"cold-{base}-{head}"))
        cold[(base, head)] = _text(shop.path, base, head)
    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / "shared"))  # one cache for every run, as CI keeps it
    for _ in range(2):
        for pair in pairs:
            assert _text(shop.path, *pair) == cold[pair], pair
    assert "tool.approval_lowered" in cold[("HEAD~3", "HEAD~2")]


# Cross-module edits where a reused base could hide what the head changed: the module that decides
# what another module's registration is changes, appears, or goes away, while the registering
# module itself is untouched.
SERVER = "from fastmcp import FastMCP\n\nmcp = FastMCP('ops')\n"
NOT_A_SERVER = "class Plain:\n    def tool(self):\n        return lambda f: f\n\nmcp = Plain()\n"
OPS_TOOLS = """
from ops.server import mcp

@mcp.tool()
def wipe(path: str) -> str:
    '''Delete everything under a path.'''
    return path
"""
OPS_GATED = """
from receipt.markers import tool
from ops.gates import GATE

@tool(dangerous=True, approval=GATE)
def wipe(path: str) -> str:
    '''Delete everything under a path.'''
    return path
"""


def test_a_module_that_stops_being_a_server_removes_the_tools_registered_on_it_with_a_cached_base(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/tools.py": OPS_TOOLS})
    git_repo.commit({"ops/server.py": NOT_A_SERVER})  # ops/tools.py is untouched
    cold, incremental, rerun = _three_ways(git_repo.path, "HEAD~1", "HEAD", tmp_path / "caches", monkeypatch)
    assert "tool.removed" in cold and "wipe" in cold
    assert incremental == cold
    assert rerun == cold


def test_a_module_added_where_an_import_failed_is_read_with_a_cached_base(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The base's registration goes through an import nothing in the tree answers; the head adds the module.
    git_repo.commit({"ops/__init__.py": "", "ops/tools.py": OPS_TOOLS})
    git_repo.commit({"ops/server.py": SERVER})
    cold, incremental, rerun = _three_ways(git_repo.path, "HEAD~1", "HEAD", tmp_path / "caches", monkeypatch)
    assert "tool.added" in cold and "wipe" in cold
    assert incremental == cold
    assert rerun == cold


def test_a_deleted_module_leaves_the_value_it_gave_unknown_with_a_cached_base(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = "from receipt.markers import agent\nfrom ops.tools import wipe\n\n@agent(model='gpt-5')\ndef janitor(q):\n    return wipe(q)\n"
    git_repo.commit({"ops/__init__.py": "", "ops/gates.py": 'GATE = "always"\n', "ops/tools.py": OPS_GATED, "ops/agent.py": agent})
    git_repo.commit({"ops/gates.py": None})
    cold, incremental, rerun = _three_ways(git_repo.path, "HEAD~1", "HEAD", tmp_path / "caches", monkeypatch)
    assert "wipe" in cold and "approval" in cold
    assert cold != _text(git_repo.path, "HEAD", "HEAD")  # it is a change, not a no-op
    assert incremental == cold
    assert rerun == cold
