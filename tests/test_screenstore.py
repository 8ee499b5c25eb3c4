"""Screens kept with a cached surface (receipt/extract/screenstore.py) across runs: a receipt's head
reuses what its base's scans found empty only where nothing it read changed, through a chain of
receipts (each head's screens become the next base's), and an entry that does not hold what its seal
says is ignored. Real git repositories, the real pipeline and cache; each run a fresh pipeline call
sharing only the cache directory."""

from __future__ import annotations

import hashlib
import json
import zlib
from pathlib import Path
from typing import Any

import pytest

from receipt import pipeline
from receipt.extract import screenstore
from receipt.gitsource import GitRepo
from receipt.pipeline import build_receipt, build_surface
from tests.helpers import GitRepoBuilder
from tests.test_screens import FILLER, PLAIN_HOOKS, SERVER, SERVER_HOOKS, TOOLS, _surface_json


def _kept_memos(monkeypatch: pytest.MonkeyPatch) -> list[screenstore.KeptMemo]:
    memos: list[screenstore.KeptMemo] = []

    class Spy(screenstore.KeptMemo):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            memos.append(self)

    monkeypatch.setattr(screenstore, "KeptMemo", Spy)
    return memos


def _alone(repo: Path, rev: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> str:
    with monkeypatch.context() as m:
        m.setenv("RECEIPT_CACHE_DIR", str(tmp_path / name))
        return _surface_json(build_surface(GitRepo(repo), rev))


def test_a_chain_of_receipts_carries_kept_screens_and_still_sees_what_a_later_change_decides(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # c1 -> c2 changes an unrelated module; c2 -> c3 changes ops/hooks.py, which decides what the
    # untouched ops/tools.py registers. The screens c3's head reuses were kept by c2's head, which
    # took most of them from c1's: what ops/tools.py read must have travelled with them.
    git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/hooks.py": PLAIN_HOOKS, "ops/tools.py": TOOLS, **FILLER})
    git_repo.commit({"ops/util0.py": "def helper0(x):\n    return x - 1\n"})
    git_repo.commit({"ops/hooks.py": SERVER_HOOKS})
    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(pipeline, "KEEP_SCREENS", True)  # off by default: its memory (see pipeline)
    monkeypatch.setattr(pipeline, "RECORD_HEADS", True)  # each head keeps its screens (off by default: cost)
    build_surface(GitRepo(git_repo.path), "HEAD~2")  # the default branch's surface, precomputed
    memos = _kept_memos(monkeypatch)
    first = build_receipt(git_repo.path, "HEAD~2", "HEAD~1")
    assert len(memos) == 1 and memos[0].reused > 0
    second = build_receipt(git_repo.path, "HEAD~1", "HEAD")
    assert len(memos) == 2 and memos[1].reused > 0  # c2's head kept screens: c3's head used them
    for receipt, rev in ((first, "HEAD~1"), (second, "HEAD")):
        head = receipt.surfaces["head"]
        alone = json.loads(_alone(git_repo.path, rev, tmp_path, monkeypatch, f"alone-{rev}"))
        assert json.loads(_surface_json(head)) == {**alone, "sha": head.sha}
    assert {t.name for t in second.surfaces["base"].tools} == set()
    assert {t.name for t in second.surfaces["head"].tools} == {"wipe", "purge"}
    assert {c.id for c in second.changes} >= {"tool.added"}


def test_a_kept_entry_that_does_not_hold_what_its_seal_says_is_ignored(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The entry is edited to claim that ops/tools.py read nothing (so no change could reach it)
    # without resealing it: were it believed, the head would miss the tools ops/hooks.py now makes.
    git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/hooks.py": PLAIN_HOOKS, "ops/tools.py": TOOLS, **FILLER})
    git_repo.commit({"ops/hooks.py": SERVER_HOOKS})
    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(pipeline, "KEEP_SCREENS", True)  # off by default: its memory (see pipeline)
    build_surface(GitRepo(git_repo.path), "HEAD~1")
    [entry] = (tmp_path / "cache" / "screens").rglob("*.zjson")
    head, _, packed = zlib.decompress(entry.read_bytes()).partition(b"\n")  # a line of JSON, then the body compressed
    body = zlib.decompress(packed)
    kept = screenstore.decode(body)
    assert "ops/tools.py" in kept.modules
    size = int.from_bytes(body[:8], "little")
    meta = json.loads(body[8 : 8 + size])
    at = 8 + size
    at += 8 + int.from_bytes(body[at : at + 8], "little")  # the effects kept: as they are
    blob, lying = bytearray(), []
    for path, sites, count, selected in meta:
        if path != "ops/tools.py":
            blob += body[at : at + 4 * count]
        lying.append([path, sites, 0 if path == "ops/tools.py" else count, selected])
        at += 4 * count
    new_meta = json.dumps(lying, separators=(",", ":")).encode()
    effects = body[8 + size : at - 4 * sum(row[2] for row in meta)]  # as stored: their length, then the JSON
    forged = len(new_meta).to_bytes(8, "little") + new_meta + effects + bytes(blob)
    assert screenstore.decode(forged).modules["ops/tools.py"][1].tolist() == []
    entry.write_bytes(zlib.compress(head + b"\n" + zlib.compress(forged)))
    memos = _kept_memos(monkeypatch)
    receipt = build_receipt(git_repo.path, "HEAD~1", "HEAD")
    assert memos == []  # not read: the head computed every screen
    assert {t.name for t in receipt.surfaces["head"].tools} == {"wipe", "purge"}


def test_a_kept_entry_whose_effects_are_not_what_this_version_reads_is_ignored_even_resealed(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The base's effects by where each one is (what the head compares its program with, instead of
    # building the base's again) name a module that is not there: the entry is sealed again over
    # the edit, so only reading it can tell. It is then not read at all: the head computes every
    # screen, and its surface is the one computed alone.
    log = "HANDLERS = []\nHANDLERS.append(print)\n"  # a call made as a statement: an effect on HANDLERS
    git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/hooks.py": PLAIN_HOOKS, "ops/tools.py": TOOLS, "ops/log.py": log, **FILLER})
    git_repo.commit({"ops/hooks.py": SERVER_HOOKS})
    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / "cache"))
    build_surface(GitRepo(git_repo.path), "HEAD~1")
    [entry] = (tmp_path / "cache" / "screens").rglob("*.zjson")
    line, _, packed = zlib.decompress(entry.read_bytes()).partition(b"\n")
    body = zlib.decompress(packed)
    [(digest, where)] = screenstore.decode(body).effects.values()
    assert screenstore.decode(body).effects.keys() == {"ops.log.HANDLERS"} and len(digest) == 16 and where == ("ops/log.py",)
    size = int.from_bytes(body[:8], "little")
    at = 8 + size
    more = int.from_bytes(body[at : at + 8], "little")
    paths, keys = json.loads(body[at + 8 : at + 8 + more])
    keys[0][2][0] = len(paths)  # the first receiver's module: past the entry's list of paths
    placed = json.dumps([paths, keys], separators=(",", ":")).encode()
    forged = body[:at] + len(placed).to_bytes(8, "little") + placed + body[at + 8 + more :]
    head = {**json.loads(line), "sha256": hashlib.sha256(forged).hexdigest()}
    entry.write_bytes(zlib.compress(json.dumps(head, separators=(",", ":")).encode() + b"\n" + zlib.compress(forged)))
    memos = _kept_memos(monkeypatch)
    receipt = build_receipt(git_repo.path, "HEAD~1", "HEAD")
    assert memos == []  # not read: the head computed every screen
    alone = json.loads(_alone(git_repo.path, "HEAD", tmp_path, monkeypatch, "alone"))
    assert json.loads(_surface_json(receipt.surfaces["head"])) == {**alone, "sha": receipt.surfaces["head"].sha}
    assert {t.name for t in receipt.surfaces["head"].tools} == {"wipe", "purge"}
