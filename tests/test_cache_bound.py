"""The on-disk cache is bounded: old entries are evicted, the bound holds run after run, and an
evicted entry is computed again (the receipt never changes because of what the cache holds).

Real git repositories in temp dirs, the real cache directory, `RECEIPT_CACHE_MAX_MB` as a user sets it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from receipt.pipeline import build_receipt
from receipt.render import render_json, render_markdown
from tests.helpers import GitRepoBuilder

TOOLS = """
from receipt.markers import tool
from shop.util import audit

@tool(dangerous=True, approval="always")
def refund(order_id: str):
    '''Refund an order.'''
    audit(order_id)
"""


def _module(i: int) -> str:
    """A library module with enough code that its facts entry is a few hundred bytes."""
    body = "".join(f"\ndef step_{i}_{j}(rows, limit={j}):\n    out = [r for r in rows if r.level > limit]\n    return sorted(out, key=len)\n" for j in range(12))
    return f"from shop.util import audit\n{body}"


def _entries(root: Path, kind: str = "") -> dict[str, int]:
    return {p.name: p.stat().st_size for p in root.rglob("*.zjson") if kind in p.parts or not kind}


def _receipt(repo: Path, base: str, head: str) -> str:
    r = build_receipt(repo, base, head)
    return render_markdown(r) + "\0" + render_json(r)


@pytest.fixture
def history(git_repo: GitRepoBuilder, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[str]]:
    monkeypatch.setenv("RECEIPT_TODAY", "2026-01-01")
    monkeypatch.delenv("RECEIPT_CACHE_MAX_MB", raising=False)
    files = {"shop/__init__.py": "", "shop/util.py": "def audit(x):\n    return x\n", "shop/tools.py": TOOLS}
    files.update({f"shop/lib_{i}.py": _module(i) for i in range(30)})
    commits = [git_repo.commit(files)]
    for n in range(3):
        commits.append(git_repo.commit({f"shop/lib_{n}.py": _module(n) + f"\nLIMIT_{n} = {n}\n"}))
    commits.append(git_repo.commit({"shop/tools.py": TOOLS.replace(', approval="always"', "")}))
    return git_repo.path, commits


def test_a_bounded_cache_evicts_old_entries_and_the_bound_holds_run_after_run(
    history: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, commits = history
    pairs = list(zip(commits, commits[1:]))
    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / "free"))
    expected = [_receipt(repo, b, h) for b, h in pairs]
    unbounded = _entries(tmp_path / "free")
    bound = sum(unbounded.values()) // 3
    assert bound > max(unbounded.values())  # room for several entries: eviction, not a disabled cache

    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / "bounded"))
    monkeypatch.setenv("RECEIPT_CACHE_MAX_MB", str(bound / 1_000_000))
    for (b, h), want in zip(pairs, expected):
        assert _receipt(repo, b, h) == want  # what the cache holds never changes a receipt
        held = _entries(tmp_path / "bounded")
        assert sum(held.values()) <= bound
    assert set(held) < set(unbounded)  # old entries were evicted, nothing foreign was written


def test_an_evicted_entry_is_computed_again_and_stored(history: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo, commits = history
    base, head = commits[-2], commits[-1]
    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / "free"))
    expected = _receipt(repo, base, head)
    unbounded = _entries(tmp_path / "free")

    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / "bounded"))
    monkeypatch.setenv("RECEIPT_CACHE_MAX_MB", str(sum(unbounded.values()) / 4 / 1_000_000))
    assert _receipt(repo, base, head) == expected
    evicted = set(unbounded) - set(_entries(tmp_path / "bounded"))
    assert evicted

    monkeypatch.delenv("RECEIPT_CACHE_MAX_MB")  # the default bound holds all of them
    shutil.rmtree(tmp_path / "bounded" / "surfaces")  # as if evicted too: the run needs every file's facts
    assert _receipt(repo, base, head) == expected
    assert set(_entries(tmp_path / "bounded", "facts")) == set(_entries(tmp_path / "free", "facts"))  # all back, recomputed


def test_the_cache_bound_accepts_fractions_and_falls_back_on_nonsense(monkeypatch: pytest.MonkeyPatch) -> None:
    from receipt.extract.cache import DEFAULT_MAX_MB, max_cache_bytes

    monkeypatch.setenv("RECEIPT_CACHE_MAX_MB", "0.5")
    assert max_cache_bytes() == 500_000
    monkeypatch.setenv("RECEIPT_CACHE_MAX_MB", "lots")
    assert max_cache_bytes() == DEFAULT_MAX_MB * 1_000_000
    monkeypatch.setenv("RECEIPT_CACHE_MAX_MB", "-3")
    assert max_cache_bytes() == 0
