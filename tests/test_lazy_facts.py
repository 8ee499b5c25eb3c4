"""Facts read lazily (extract/facts.py `facts_from_json(lazy=True)`, what an incremental receipt's
head does with pipeline.LAZY_HEADS, for the modules its base's kept screens say it hardly reads): the same facts as an eager read once read, nothing of a record
decoded before something reads it, and a malformed entry still a miss: at once when its records
are malformed, when first read when an expression is (the run reads its files again, eagerly).
Real extraction, real cache files, real git repositories."""

from __future__ import annotations

import json
from receipt.extract.cache import pack, unpack
from pathlib import Path

import pytest

from receipt import pipeline
from receipt.extract import extract_file
from receipt.extract.cache import FactsCache, dumps, entry_file, loads
from receipt.extract.facts import (
    AssignFact,
    CorruptEntry,
    EffectFact,
    FunctionFact,
    Ref,
    alias_of,
    assigned_call_name,
    attribute_callee,
    calls_named,
    facts_from_json,
    facts_to_json,
    indexed_callee,
    mutates_of,
)
from receipt.gitsource import GitRepo
from receipt.pipeline import build_receipt, build_surface
from tests.helpers import GitRepoBuilder
from tests.test_screens import FILLER, SERVER, SERVER_HOOKS, TOOLS

SOURCE = '''
from agents import Agent, function_tool
import tools as t

BASE = t.DEFAULT
ALIAS = BASE
registry = []
CFG = {"tools": []}


@function_tool(needs_approval=True)
def refund(order_id: str, amount: float = 0.0) -> str:
    """Refund an order."""
    if amount > 10:
        raise ValueError(order_id)
    return helper(order_id, scale=2)


class Ledger(t.Base, metaclass=t.Meta):
    rate: float = 1.5

    def total(self) -> float:
        return self.rate * 2


def configure(cfg):
    cfg.update(strict=True)
    return helper(cfg)


registry.append(refund)
CFG["tools"].append(refund)
t.server.add_tool(refund)
agent = Agent(name="support", tools=[refund, *registry], model="gpt-4o")
'''


def _json(src: str = SOURCE) -> list:  # type: ignore[type-arg]
    return json.loads(json.dumps(facts_to_json(extract_file("app/main.py", src.encode()))))


def test_lazy_facts_read_back_as_the_eager_ones_and_decode_nothing_before_a_read() -> None:
    eager = facts_from_json(_json())
    lazy = facts_from_json(_json(), lazy=True, where="app/main.py")
    records = [*lazy.functions, *lazy.classes, *lazy.assigns, *lazy.effects]
    assert records and all(r.__class__ not in (FunctionFact, AssignFact, EffectFact) for r in records)
    assert lazy.lazy()
    # What Program reads of every module (names, aliases, effects' callees): no record is read for it.
    assert [f.symbol for f in lazy.functions] == [f.symbol for f in eager.functions]
    assert [a.target for a in lazy.assigns] == [a.target for a in eager.assigns]
    assert [alias_of(a) for a in lazy.assigns] == [alias_of(a) for a in eager.assigns]
    assert "app.main.BASE" in [alias_of(a) for a in lazy.assigns]  # ALIAS = BASE
    assert [indexed_callee(e) for e in lazy.effects] == [indexed_callee(e) for e in eager.effects]
    assert [indexed_callee(e) for e in lazy.effects].count(None) == 0  # names and a subscript
    assert [assigned_call_name(a) for a in lazy.assigns] == [assigned_call_name(a) for a in eager.assigns]
    assert "agents.Agent" in [getattr(assigned_call_name(a), "name", None) for a in lazy.assigns]
    assert [mutates_of(f) for f in lazy.functions] == [mutates_of(f) for f in eager.functions] == [[], [], ["cfg"]]
    assert [calls_named(f, {"helper", "update"}) for f in lazy.functions] == [calls_named(f, {"helper", "update"}) for f in eager.functions]
    assert [len(calls_named(f, {"helper", "update"})) for f in lazy.functions] == [1, 0, 1]
    # No record was read for it: the callees that are neither a plain name nor a call
    # (`CFG["tools"].append`, `cfg.update`: a Dyn) decoded when the module was read.
    assert not [r for r in records if r.__class__ in (FunctionFact, AssignFact, EffectFact)]
    assert sorted(indexed_callee(e).why for e in lazy.effects if indexed_callee(e).__class__ is not Ref) == ["parameter", "subscript"]  # type: ignore[union-attr]
    # One field of a function: the function is still a stand-in, and equal to the eager one.
    [fn] = [f for f in lazy.functions if f.name == "refund"]
    assert [type(r).__name__ for r in fn.returns_exprs] == ["Call"]
    assert type(fn) is not FunctionFact
    assert lazy == eager  # reads every record: each becomes the very class an eager read makes
    assert not lazy.lazy()
    assert {type(r) for r in [*lazy.functions, *lazy.assigns, *lazy.effects]} == {FunctionFact, AssignFact, EffectFact}
    assert repr(lazy) == repr(eager)


def test_decoded_facts_are_the_extracted_ones_and_encode_to_the_same_entry() -> None:
    """Decoded functions share one empty list for each empty field (most of them): they still
    equal what extraction made, encode to the very entry (the digests a cached surface is checked
    against), and the shared list refuses a change that would reach every function at once."""
    extracted = extract_file("app/main.py", SOURCE.encode())
    for decoded in (facts_from_json(_json()), facts_from_json(_json(), lazy=True, where="app/main.py")):
        assert decoded == extracted
        assert json.loads(json.dumps(facts_to_json(decoded))) == _json()
        [total] = [f for f in decoded.functions if f.name == "total"]
        [configure] = [f for f in decoded.functions if f.name == "configure"]
        assert total.decorators == total.raises == total.mutates == configure.decorators == []
        with pytest.raises(TypeError):
            total.decorators.append(configure)
        with pytest.raises(TypeError):
            total.raises += [configure]
        assert configure.decorators == [] and total.raises == []


def test_a_lazy_read_with_its_bytes_keeps_only_its_peeks_and_parses_again_once_when_a_record_is_read() -> None:
    """How the cache reads a head's entry lazily (`reread`: the JSON parsed again from the bytes
    it read): what `Program` and the dialects read of nearly every module is taken at once, the
    parsed JSON let go, and parsed again once, only when something else of a record is read."""
    eager = facts_from_json(_json())
    rereads: list[int] = []

    def reread() -> list:  # type: ignore[type-arg]
        rereads.append(1)
        return _json()

    lazy = facts_from_json(_json(), lazy=True, where="app/main.py", reread=reread)
    assert [alias_of(a) for a in lazy.assigns] == [alias_of(a) for a in eager.assigns]
    assert [assigned_call_name(a) for a in lazy.assigns] == [assigned_call_name(a) for a in eager.assigns]
    assert [indexed_callee(e) for e in lazy.effects] == [indexed_callee(e) for e in eager.effects]
    assert [attribute_callee(e) for e in lazy.effects] == [attribute_callee(e) for e in eager.effects]
    assert [mutates_of(f) for f in lazy.functions] == [mutates_of(f) for f in eager.functions] == [[], [], ["cfg"]]
    assert [f.returns_exprs for f in lazy.functions] == [f.returns_exprs for f in eager.functions]
    assert [f.mutates for f in lazy.functions] == [f.mutates for f in eager.functions]
    assert rereads == []  # all of it from the peeks
    assert lazy.lazy() and all(type(f) is not FunctionFact for f in lazy.functions)
    [fn] = [f for f in lazy.functions if f.name == "refund"]
    assert fn.params[0].name == "order_id" and rereads == [1]  # a field not peeked: the JSON parsed again
    assert [calls_named(f, {"helper", "update"}) for f in lazy.functions] == [calls_named(f, {"helper", "update"}) for f in eager.functions]
    assert lazy == eager and rereads == [1]  # once, whatever is read afterwards
    assert repr(lazy) == repr(eager)


def test_a_malformed_expression_among_the_peeks_makes_the_lazy_read_a_miss_at_once() -> None:
    """A module whose returned call is malformed: with its bytes kept, the peek of its return
    expressions finds it when the entry is read, which is then a miss (extracted again), not a
    CorruptEntry later."""
    with pytest.raises(ValueError):
        facts_from_json(_calls_spoilt(_json()), lazy=True, where="app/main.py", reread=_json)
    # Bytes that no longer parse to what was read when read again (a cache file is read once, so
    # this takes a failing parser): the record read then raises, the run reads its files again.
    lazy = facts_from_json(_json(), lazy=True, where="app/main.py", reread=lambda: _calls_spoilt(_json()))
    with pytest.raises(CorruptEntry, match="app/main.py"):
        [e.call for e in lazy.effects]


def _calls_spoilt(j: list) -> list:  # type: ignore[type-arg]
    """Every call's line as text: a malformed expression, the records around it as written."""
    for row in j[-1]:
        if isinstance(row, list) and row[0] == 0:
            row[4] = str(row[4])
    return j


def _helper_calls_spoilt(j: list) -> list:  # type: ignore[type-arg]
    """The line of every call of `helper` as text (not a call a lazy read decodes when reading)."""
    rows = j[-1]
    for row in rows:
        if isinstance(row, list) and row[0] == 0 and rows[row[1]] == [1, "app.main.helper"]:
            row[4] = str(row[4])
    return j


def test_a_malformed_expression_read_lazily_raises_when_read_and_a_malformed_record_at_once() -> None:
    with pytest.raises(ValueError):
        facts_from_json(_helper_calls_spoilt(_json()))  # read eagerly: a miss
    with pytest.raises(ValueError):  # a subscript's call, decoded when the module is read: a miss at once
        facts_from_json(_calls_spoilt(_json()), lazy=True, where="app/main.py (blob b1)")
    lazy = facts_from_json(_helper_calls_spoilt(_json()), lazy=True, where="app/main.py (blob b1)")
    [fn] = [f for f in lazy.functions if f.name == "refund"]
    assert fn.name == "refund" and fn.params[0].name == "order_id"  # what holds no call reads
    with pytest.raises(CorruptEntry, match="app/main.py"):
        fn.returns_exprs  # noqa: B018 - `helper(order_id, scale=2)`
    with pytest.raises(CorruptEntry):
        fn.returns_exprs  # noqa: B018 - again: nothing half-read was kept
    with pytest.raises(CorruptEntry):
        [f.calls for f in lazy.functions]  # `configure` calls `helper(cfg)`
    assert not issubclass(CorruptEntry, Exception)  # no `except Exception` on the way swallows it
    out_of_table = _json()
    out_of_table[6][0] = len(out_of_table[-1])  # an assignment's value outside the table
    with pytest.raises(ValueError):
        facts_from_json(out_of_table, lazy=True)
    mistyped = _json()
    mistyped[10][0][2] = "20"  # a function's line as text
    with pytest.raises(ValueError):
        facts_from_json(mistyped, lazy=True)


def forgetting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A 1 for each time a run forgets the facts it read lazily (and reads its files again, eagerly)."""
    forgotten: list[int] = []
    forget = FactsCache.forget_lazy

    def spy(self: FactsCache) -> None:
        forgotten.append(1)
        forget(self)

    monkeypatch.setattr(FactsCache, "forget_lazy", spy)
    return forgotten


def _incremental(git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    base = git_repo.commit({"ops/__init__.py": "", "ops/server.py": SERVER, "ops/hooks.py": SERVER_HOOKS, "ops/tools.py": TOOLS, **FILLER})
    head = git_repo.commit({"ops/util0.py": "def helper0(x):\n    return x - 1\n"})
    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(pipeline, "LAZY_HEADS", True)
    build_surface(GitRepo(git_repo.path), base)  # the base's surface and screens, precomputed
    return base, head


def _receipt(path: Path, base: str, head: str) -> str:
    r = build_receipt(path, base, head)
    return json.dumps(r.model_dump(mode="json"), sort_keys=True)


def test_an_incremental_receipt_read_lazily_is_the_eager_one(git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base, head = _incremental(git_repo, tmp_path, monkeypatch)
    seen: list[bool] = []
    facts_for = pipeline._facts_for

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(kwargs.get("lazy", False))
        return facts_for(*args, **kwargs)

    monkeypatch.setattr(pipeline, "_facts_for", spy)
    stored = sorted((tmp_path / "cache").rglob("*.zjson"))
    saved = {f: f.read_bytes() for f in stored}
    lazy = _receipt(git_repo.path, base, head)
    # Read lazily: the modules whose base screens all selected nothing (not ops/tools.py, whose
    # registrations the head's screens select again); the files that differ are extracted anyway.
    assert len(seen) == 1 and "ops/hooks.py" in seen[0] and "ops/util1.py" in seen[0]
    assert "ops/tools.py" not in seen[0] and "ops/server.py" not in seen[0]
    for f in (tmp_path / "cache").rglob("*.zjson"):  # the run as from the same cache, eagerly
        if f not in saved:
            f.unlink()
    for f, data in saved.items():
        f.write_bytes(data)
    monkeypatch.setattr(pipeline, "LAZY_HEADS", False)
    assert _receipt(git_repo.path, base, head) == lazy
    assert seen[1:] == [frozenset()]
    assert '"wipe"' in lazy and '"purge"' in lazy


def test_a_malformed_entry_found_when_read_lazily_is_a_miss_and_the_receipt_the_clean_ones(
    git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base, head = _incremental(git_repo, tmp_path, monkeypatch)
    stored = sorted((tmp_path / "cache").rglob("*.zjson"))
    saved = {f: f.read_bytes() for f in stored}
    clean = _receipt(git_repo.path, base, head)
    for f in (tmp_path / "cache").rglob("*.zjson"):
        if f not in saved:
            f.unlink()
    for f, data in saved.items():
        f.write_bytes(data)
    # ops/hooks.py is the same at both revisions: its entry is read from the cache, lazily (its
    # base screens selected nothing); the value of its `register = mcp.tool()` is read by the
    # head's dialects (what ops/tools.py's `@register` is).
    tools_blob = GitRepo(git_repo.path).list_files(head).files
    [tools] = [f for f in tools_blob if f.path == "ops/hooks.py"]
    entry = entry_file(tmp_path / "cache", tools.blob, tools.path)
    data = loads(unpack(entry.read_bytes()))
    _calls_spoilt(data["facts"])
    entry.write_bytes(pack(dumps(data)))
    with pytest.raises(ValueError):
        facts_from_json(loads(unpack(entry.read_bytes()))["facts"])  # malformed indeed
    forgotten = forgetting(monkeypatch)
    assert _receipt(git_repo.path, base, head) == clean
    assert forgotten == [1]  # found when read, not when the entry was read: read again, eagerly
    # extracted again from its blob and written back: the entry reads as facts again
    assert facts_from_json(loads(unpack(entry.read_bytes()))["facts"]).path == "ops/hooks.py"
