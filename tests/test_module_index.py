"""The module index kept with a linked surface (extract/moduleindex.py): an incremental receipt's
head makes the modules it reads lazily and shares with its base from the index, without reading
their entries, and gets the very receipt it gets reading them; a record that needs more than the
index tells reads its entry then, checked; a corrupt, forged or stale index, or an entry gone or
changed under it, never changes a receipt. Real extraction, real cache files, real git repositories."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable

import pytest
import zstandard

from receipt import pipeline
from receipt.extract import extract_file, moduleindex
from receipt.extract.cache import dumps, entry_file, loads, pack, unpack
from receipt.extract.facts import (
    AssignFact,
    CorruptEntry,
    EffectFact,
    FunctionFact,
    SharedValues,
    alias_of,
    assigned_call_name,
    attribute_callee,
    calls_named,
    facts_from_index,
    facts_from_json,
    facts_to_json,
    index_record,
    indexed_callee,
    mutates_of,
    op_of,
)
from receipt.gitsource import GitRepo
from receipt.pipeline import build_receipt, build_surface
from tests.helpers import GitRepoBuilder
from tests.test_lazy_facts import SOURCE, forgetting
from tests.test_screens import FILLER, SERVER, SERVER_HOOKS, TOOLS

# What the peeks cannot tell: a loop over names, a subscript's callee, a value that is a subscript.
MORE = SOURCE + '''
for hook in (configure, refund):
    hook(CFG)
handlers = {"a": refund}
handlers["a"]("x")
TOOLS = CFG["tools"]
ALIAS2 = CFG.get("tools")
Ledger().total()
'''


def _json(src: str = MORE) -> list[Any]:
    return json.loads(json.dumps(facts_to_json(extract_file("app/main.py", src.encode()))))


def _record(src: str = MORE) -> list[Any]:
    return json.loads(json.dumps(index_record(_json(src))))  # as a file holds it


def _indexed(rec: Any, reread: Callable[[], list[Any]]) -> Any:
    return facts_from_index(rec, SharedValues(), "app/main.py (blob b1)", reread)


def test_a_module_read_from_its_index_record_is_its_lazy_read_without_its_entry() -> None:
    eager = facts_from_json(_json())
    rereads: list[int] = []

    def reread() -> list[Any]:
        rereads.append(1)
        return _json()

    lazy = _indexed(_record(), reread)
    records = [*lazy.functions, *lazy.classes, *lazy.assigns, *lazy.effects]
    assert records and all(r.__class__ not in (FunctionFact, AssignFact, EffectFact) for r in records)
    # What Program and the dialects read of every module: from the record, the entry never read.
    assert [f.symbol for f in lazy.functions] == [f.symbol for f in eager.functions]
    assert [c.symbol for c in lazy.classes] == [c.symbol for c in eager.classes]
    assert [a.target for a in lazy.assigns] == [a.target for a in eager.assigns]
    assert [op_of(a) for a in lazy.assigns] == [op_of(a) for a in eager.assigns] and "in" in [op_of(a) for a in lazy.assigns]
    assert [alias_of(a) for a in lazy.assigns] == [alias_of(a) for a in eager.assigns]
    assert [assigned_call_name(a) for a in lazy.assigns] == [assigned_call_name(a) for a in eager.assigns]
    assert [indexed_callee(e) for e in lazy.effects] == [indexed_callee(e) for e in eager.effects]
    assert [attribute_callee(e) for e in lazy.effects] == [attribute_callee(e) for e in eager.effects]
    assert "total" in [attribute_callee(e) for e in lazy.effects]  # `Ledger().total()`
    assert [mutates_of(f) for f in lazy.functions] == [mutates_of(f) for f in eager.functions]
    assert [f.returns_exprs for f in lazy.functions] == [f.returns_exprs for f in eager.functions]
    assert (lazy.imports, lazy.star_imports, lazy.module, lazy.path) == (eager.imports, eager.star_imports, eager.module, eager.path)
    assert rereads == []
    # Anything else: the entry read once, and every record then the one an eager read makes.
    [fn] = [f for f in lazy.functions if f.name == "refund"]
    assert fn.params[0].name == "order_id" and rereads == [1]
    assert [calls_named(f, {"helper", "update"}) for f in lazy.functions] == [calls_named(f, {"helper", "update"}) for f in eager.functions]
    assert lazy == eager and rereads == [1]
    assert repr(lazy) == repr(eager)
    assert json.loads(json.dumps(facts_to_json(lazy))) == _json()


def test_an_expression_the_record_decoded_is_the_object_the_entry_read_later_holds() -> None:
    """A call's callee taken from the record and the same callee read from the entry afterwards
    are one object, as within one lazy read: sharing is what the entry encodes."""
    lazy = _indexed(_record(), _json)
    callees = [indexed_callee(e) for e in lazy.effects]
    assert all(c is e.call.func for c, e in zip(callees, lazy.effects) if c is not None)
    [fn] = [f for f in lazy.functions if f.name == "refund"]
    returned = fn.returns_exprs
    assert returned and returned[0] is next(c for c in fn.calls if c is returned[0])


def _spoilt(change: Callable[[list[Any]], object]) -> list[Any]:
    rec = _record()
    change(rec)
    return rec


@pytest.mark.parametrize(
    "rec",
    [
        pytest.param(_spoilt(lambda r: r[5].__setitem__(0, 7)), id="a target that is not text"),
        pytest.param(_spoilt(lambda r: r[6].pop()), id="an operator missing"),
        pytest.param(_spoilt(lambda r: r[9].__setitem__(0, 10_000)), id="a callee outside the rows"),
        pytest.param(_spoilt(lambda r: r[9].__setitem__(0, -2)), id="a callee unknown"),
        pytest.param(_spoilt(lambda r: r[11].__setitem__(0, 5)), id="an alias that is a number"),
        pytest.param(_spoilt(lambda r: r[12].__setitem__(0, next(i for i, row in r[19] if isinstance(row, list) and row[0] == 0))), id="an assigned callee that is a call"),
        pytest.param(_spoilt(lambda r: r[13].__setitem__(0, ["0"])), id="a returned place that is text"),
        pytest.param(_spoilt(lambda r: r[14].append([99, ["x"]])), id="a function that is not there"),
        pytest.param(_spoilt(lambda r: r[19].reverse()), id="rows out of order"),
        pytest.param(_spoilt(lambda r: r[19].__setitem__(0, [-1, r[19][0][1]])), id="a row before the table"),
        pytest.param(_spoilt(lambda r: r.append([])), id="a field too many"),
        pytest.param(_spoilt(lambda r: r[3].__setitem__("app.main.x", 1)), id="an import that is not text"),
        pytest.param("not a record", id="not a list"),
    ],
)
def test_a_malformed_index_record_is_refused_before_anything_is_made_of_it(rec: Any) -> None:
    with pytest.raises(Exception) as caught:
        _indexed(rec, _json)
    assert not isinstance(caught.value, CorruptEntry)  # refused when read: the entry is read instead


def test_a_row_of_the_record_spoilt_is_refused_too() -> None:
    rec = _record()
    calls = [i for i, (_, row) in enumerate(rec[19]) if isinstance(row, list) and row[0] == 0]
    assert calls  # the subscript's call, decoded for its callee
    rec[19][calls[0]][1][4] = "12"  # its line as text
    with pytest.raises(ValueError):
        _indexed(rec, _json)


def test_an_entry_that_cannot_be_read_again_raises_when_a_record_needs_it() -> None:
    def gone() -> list[Any]:
        raise FileNotFoundError("evicted")

    lazy = _indexed(_record(), gone)
    assert [alias_of(a) for a in lazy.assigns]  # the record's own: no read
    with pytest.raises(CorruptEntry, match="app/main.py"):
        [f.params for f in lazy.functions]


# -- in a receipt --------------------------------------------------------------------------------


def _incremental(git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    base = git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/hooks.py": SERVER_HOOKS, "ops/tools.py": TOOLS, **FILLER})
    head = git_repo.commit({"ops/util0.py": "def helper0(x):\n    return x - 1\n", "ops/tools.py": TOOLS.replace("Delete everything", "Remove everything")})
    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / "cache"))
    build_surface(GitRepo(git_repo.path), base)  # the base's surface, screens and index, precomputed
    return base, head


def _receipt(path: Path, base: str, head: str) -> str:
    r = build_receipt(path, base, head)
    return json.dumps(r.model_dump(mode="json"), sort_keys=True)


class _Cache:
    """The cache directory as the precompute left it, put back before each receipt."""

    def __init__(self, root: Path):
        self.root = root
        self.saved = {f: f.read_bytes() for f in root.rglob("*") if f.is_file()}

    def restore(self) -> None:
        for f in [f for f in self.root.rglob("*") if f.is_file()]:
            if f not in self.saved:
                f.unlink()
        for f, data in self.saved.items():
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_bytes(data)

    def index_file(self) -> Path:
        [f] = [f for f in self.saved if f.parts[-3] == "modules"]
        return f


def _used(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths whose facts a receipt makes from the index."""
    used: list[str] = []
    facts = moduleindex.ModuleIndex.facts

    def spy(self: moduleindex.ModuleIndex, blob: str, path: str, shared: SharedValues) -> Any:
        found = facts(self, blob, path, shared)
        if found is not None:
            used.append(path)
        return found

    monkeypatch.setattr(moduleindex.ModuleIndex, "facts", spy)
    return used


def test_an_incremental_receipt_made_from_the_index_is_the_one_made_from_the_entries(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base, head = _incremental(git_repo, tmp_path, monkeypatch)
    cache = _Cache(tmp_path / "cache")
    cache.index_file()  # kept with the base's surface
    used = _used(monkeypatch)
    indexed = _receipt(git_repo.path, base, head)
    # The modules read lazily and shared with the base; never one the change touches.
    assert "ops/hooks.py" in used and "ops/util1.py" in used
    assert "ops/util0.py" not in used and "ops/tools.py" not in used
    assert '"wipe"' in indexed and "Remove everything" in indexed
    cache.restore()
    monkeypatch.setattr(pipeline, "INDEX_MODULES", False)
    assert _receipt(git_repo.path, base, head) == indexed
    cache.restore()
    monkeypatch.setattr(pipeline, "LAZY_HEADS", False)
    assert _receipt(git_repo.path, base, head) == indexed


@pytest.mark.parametrize("spoil", ["truncated", "flipped", "foreign", "unchecked"])
def test_an_index_file_corrupt_or_for_another_tree_is_ignored(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spoil: str
) -> None:
    base, head = _incremental(git_repo, tmp_path, monkeypatch)
    cache = _Cache(tmp_path / "cache")
    clean = _receipt(git_repo.path, base, head)
    cache.restore()
    f = cache.index_file()
    stored = f.read_bytes()
    data = moduleindex.plain(stored)
    if spoil == "truncated":  # a whole frame of half the index
        spoilt = _framed(data[: len(data) // 2])
    elif spoil == "flipped":  # a byte of the frame: its checksum no longer holds
        i = len(stored) // 2
        spoilt = stored[:i] + bytes([stored[i] ^ 1]) + stored[i + 1 :]
    elif spoil == "foreign":  # sealed to other facts digests
        head_line, _, body = data.partition(b"\n")
        meta = json.loads(head_line)
        meta["digests"] = "0" * 64
        spoilt = _framed(json.dumps(meta).encode() + b"\n" + body)
    else:  # the very index, in a frame that says nothing of what it held
        spoilt = _framed(data, checksum=False)
    f.write_bytes(spoilt)
    used = _used(monkeypatch)
    assert _receipt(git_repo.path, base, head) == clean
    assert used == []
    cache.restore()  # as stored, the index is read
    assert _receipt(git_repo.path, base, head) == clean
    assert used


def _framed(data: bytes, checksum: bool = True) -> bytes:
    return zstandard.ZstdCompressor(write_checksum=checksum).compress(data)


def test_a_forged_record_of_a_file_the_change_touches_is_never_read(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index whose record of ops/tools.py claims the head's blob (and says it holds nothing):
    the files that differ between the revisions are extracted from their blobs, whatever the
    cache holds, so the receipt still shows the head's tool."""
    base, head = _incremental(git_repo, tmp_path, monkeypatch)
    cache = _Cache(tmp_path / "cache")
    clean = _receipt(git_repo.path, base, head)
    cache.restore()
    root = tmp_path / "cache"
    [tools] = [f for f in GitRepo(git_repo.path).list_files(head).files if f.path == "ops/tools.py"]
    bound, digests = _sealed(root, git_repo, base)
    index = moduleindex.load(root, bound, digests)
    assert index is not None and "ops/tools.py" not in index.records  # its screens select its tool: read whole
    records = [([path, blob, digest], index.data[start:end]) for path, (blob, digest, start, end) in index.records.items()]
    records.append((["ops/tools.py", tools.blob, digests["ops/tools.py"]], dumps(index_record(facts_to_json(extract_file("ops/tools.py", b""))))))
    assert moduleindex.write(root, bound, digests, records)
    forged = moduleindex.load(root, bound, digests)
    assert forged is not None and forged.records["ops/tools.py"][0] == tools.blob
    used = _used(monkeypatch)
    assert _receipt(git_repo.path, base, head) == clean
    assert "ops/tools.py" not in used and used


def _sealed(root: Path, git_repo: GitRepoBuilder, base: str) -> tuple[dict[str, str], dict[str, str]]:
    """The binding and facts digests the base's stored surface is kept under."""
    repo = GitRepo(git_repo.path)
    listing = pipeline._listing(repo, repo.resolve(base), (), pipeline.Config(), False)
    layout = pipeline._layout_files(repo, repo.resolve(base))
    linked = pipeline.SurfaceCache(root)
    bound = linked.binding(pipeline._tree_key(listing, layout), pipeline.Config().model_dump(mode="json"))
    stored = linked.get(bound)
    assert stored is not None
    return bound, stored[1]


@pytest.mark.parametrize("how", ["deleted", "rewritten"])
def test_an_entry_gone_or_changed_under_its_record_makes_the_run_read_every_file_again(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """ops/hooks.py is read from the index, and the head's dialects then read the value of its
    `register = mcp.tool()` (what ops/tools.py's `@register` is): its entry is read then. Gone
    (evicted), or not the entry the record was made from, the run reads its files again, eagerly,
    and its receipt is the one reading the entries makes (a file both revisions share is taken
    from the cache either way: an entry bound to its blob is what the cache trusts)."""
    base, head = _incremental(git_repo, tmp_path, monkeypatch)
    cache = _Cache(tmp_path / "cache")
    [hooks] = [f for f in GitRepo(git_repo.path).list_files(head).files if f.path == "ops/hooks.py"]
    entry = entry_file(tmp_path / "cache", hooks.blob, hooks.path)
    if how == "deleted":
        entry.unlink()
    else:  # well formed, bound to the same blob and path, but other facts
        data = loads(unpack(entry.read_bytes()))
        data["facts"] = facts_to_json(extract_file("ops/hooks.py", SERVER_HOOKS.replace("mcp.tool()", "mcp.tool(name='x')").encode()))
        entry.write_bytes(pack(dumps(data)))
    spoilt = _Cache(tmp_path / "cache")
    monkeypatch.setattr(pipeline, "INDEX_MODULES", False)
    from_entries = _receipt(git_repo.path, base, head)
    spoilt.restore()
    monkeypatch.setattr(pipeline, "INDEX_MODULES", True)
    forgotten = forgetting(monkeypatch)
    used = _used(monkeypatch)
    assert _receipt(git_repo.path, base, head) == from_entries
    assert "ops/hooks.py" in used and forgotten == [1]
    if how == "deleted":  # extracted again from its blob and written back
        assert facts_from_json(loads(unpack(entry.read_bytes()))["facts"]) == extract_file("ops/hooks.py", SERVER_HOOKS.encode())
        cache.restore()
        assert _receipt(git_repo.path, base, head) == from_entries


@pytest.mark.skipif(not hasattr(os, "fork") or len(os.sched_getaffinity(0)) < 2, reason="needs fork and two usable cores")
def test_the_kept_screens_and_index_read_while_the_child_works_are_the_heads(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a child extracts the files that differ, the run reads what is kept with the stored
    base (screens, module index) instead of waiting: read once, used by the head, the same receipt."""
    from receipt.extract import screenstore

    base, head = _incremental(git_repo, tmp_path, monkeypatch)
    cache = _Cache(tmp_path / "cache")
    monkeypatch.setattr(pipeline.threading, "active_count", lambda: 1)  # the CLI's one thread, as it forks
    loads_of: list[str] = []
    load, index_load = screenstore.load, moduleindex.load
    monkeypatch.setattr(screenstore, "load", lambda *a: loads_of.append("screens") or load(*a))
    monkeypatch.setattr(moduleindex, "load", lambda *a: loads_of.append("index") or index_load(*a))
    read_kept = pipeline._SeenEntries.read_kept
    reads: list[bool] = []

    def spy(self: pipeline._SeenEntries, *args: Any) -> None:
        read_kept(self, *args)
        reads.append(self.kept is not None)

    monkeypatch.setattr(pipeline._SeenEntries, "read_kept", spy)
    used = _used(monkeypatch)
    early = _receipt(git_repo.path, base, head)
    assert reads and reads[0] and loads_of == ["screens", "index"]  # once each, beside the child
    assert "ops/hooks.py" in used
    cache.restore()
    monkeypatch.setattr(pipeline._SeenEntries, "read_kept", lambda self, *args: None)
    loads_of.clear()
    assert _receipt(git_repo.path, base, head) == early
    assert loads_of == ["screens", "index"]  # read by the head itself
