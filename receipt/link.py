"""Link: dialect candidates -> one surface. Overlays, identity, reach by symbol, exported closure."""

from __future__ import annotations

from collections import deque
from typing import Iterable

from receipt.dialects.base import Candidate, DialectResult, digest
from receipt.dialects.markers import apply_declared
from receipt.dialects.unseen import rebound_reach, unfollowable_reach, unrecognised_reach
from receipt.extract.facts import Const, ModuleFacts, Seq
from receipt.extract.program import Program
from receipt.identity import assign_slots, unique_keys
from receipt.models import TEXT_LIMIT, TEXT_OF_DIGEST, Dynamic, Entry, ExtractionIssue
from receipt.schemas import attach_schemas


def _apply_overlays(cands: list[Candidate]) -> list[Candidate]:
    primary = [c for c in cands if not c.overlay]
    by_symbol: dict[str, list[Candidate]] = {}
    for c in primary:
        for s in c.symbols:
            by_symbol.setdefault(s, []).append(c)
    out = list(primary)
    for o in (c for c in cands if c.overlay):
        targets = {id(t): t for s in sorted(o.symbols) for t in by_symbol.get(s, [])}
        if not targets:
            if o.standalone:
                out.append(Candidate(o.entry, o.symbols, o.reach, False, o.declared))
            continue
        for t in targets.values():
            apply_declared(t.entry, o.declared)
            t.entry.root = t.entry.root or o.entry.root
            t.reach.extend(o.reach)
    return out


def _assign_identity(program: Program, cands: list[Candidate]) -> None:
    """Home (default: the defining module), slot and a surface-unique key for every entry."""
    module_of_path = {m.path: m.module for m in program.modules.values()}
    for c in cands:
        if not c.entry.home:
            c.entry.home = module_of_path.get(c.entry.path, c.entry.path)
    assign_slots([(c.entry, c.symbols) for c in cands])
    # Slots are told apart by path-keyed symbols; the identity compared across revisions is the
    # layout's (a move to src/ keeps it).
    for c in cands:
        c.entry.home = program.home_of(c.entry.home)
    unique_keys(c.entry for c in cands)


def _merge_same_symbol(cands: list[Candidate]) -> list[Candidate]:
    """Two dialects describing the same object with the same key are one entry (first wins). One
    dialect registering it twice (`if safe: mcp.add_tool(f, ...) else: mcp.add_tool(f, ...)`) is
    one entry too, whose attributes the registrations give differently are dynamic: which one
    runs is not known statically, and the first is no better a guess than the last."""
    seen: dict[tuple[str, str], Candidate] = {}
    out: list[Candidate] = []
    again: dict[int, list[Entry]] = {}  # id(kept candidate) -> the same dialect's other registrations
    for c in sorted(cands, key=lambda c: (c.entry.key, c.entry.path, c.entry.line, c.entry.dialect)):
        dup = None
        for s in c.symbols:
            dup = seen.get((c.entry.key, s))
            if dup:
                break
        if dup is not None:
            dup.symbols |= c.symbols
            dup.reach.extend(c.reach)
            for r, at in c.listed_at.items():
                dup.listed_at.setdefault(r, at)
            dup.entry.root = dup.entry.root or c.entry.root
            if c.entry.dialect == dup.entry.dialect:
                again.setdefault(id(dup), []).append(c.entry)
            continue
        for s in c.symbols:
            seen[(c.entry.key, s)] = c
        out.append(c)
    for c in out:
        if id(c) in again:
            _registered_ways(c.entry, again[id(c)])
    return out


# What each registration of an entry says of it: attributes compared across revisions.
_REGISTERED = ("dangerous", "approval", "trust_tier", "read_only", "idempotent", "open_world", "replayable", "deterministic", "model")
_REGISTERED_TEXTS = ("description_sha256", "instructions_sha256")


def _registered_ways(entry: Entry, others: list[Entry]) -> None:
    """`entry` registered again as `others` (one dialect): each attribute they do not all give
    alike is dynamic, named by the values it takes (never by where: a line is no identity)."""
    ways = [entry, *others]
    for attr in _REGISTERED:
        values = [getattr(e, attr) for e in ways]
        if any(v != values[0] for v in values[1:]):
            setattr(entry, attr, Dynamic(dynamic=f"which of {len(ways)} registrations runs: {' or '.join(sorted({_shown(v) for v in values}))}"))
            entry.defaults.pop(attr, None)
    for attr in _REGISTERED_TEXTS:
        values = [getattr(e, attr) for e in ways]
        if any(v != values[0] for v in values[1:]):
            digests = sorted({"none" if v is None else str(v) for v in values})
            shown = [getattr(e, TEXT_OF_DIGEST[attr]) for e in ways]
            setattr(entry, attr, digest(Dynamic(dynamic=f"which of {len(ways)} registrations runs: {' or '.join(digests)}")))
            if all(t is not None for t in shown):  # what the model may read: each registration's words (shown, never compared)
                setattr(entry, TEXT_OF_DIGEST[attr], "\n-- or --\n".join(dict.fromkeys(shown))[:TEXT_LIMIT])
    if any(e.conditional for e in ways):
        entry.conditional = True


def _shown(value: object) -> str:
    """An attribute's value as the dynamic text of `_registered_ways` names it."""
    if isinstance(value, Dynamic):
        return f"dynamic ({value.dynamic})"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def published(program: Program) -> set[str]:
    """What the top-level packages of the tree publish: the symbols each one's `__init__.py` binds
    to a public name (its `__all__` when that is a literal list, else every name not starting with
    `_`: imported, defined or assigned there, or given by a star import of a repository module),
    resolved to where they are defined. A tool library (`from .tools import CodeInterpreterTool`)
    is imported by agents outside the repository: what it publishes is as reachable as a tool an
    agent of its own lists, so it is an export root. Tools only its own internals use stay out."""
    found: set[str] = set()
    for name, m in program.modules.items():
        # the layout's import name, not the path's: `src/shop/__init__.py` publishes `shop`
        if m.is_package and "." not in program.homes.get(name, name).rpartition(":")[2]:
            found.update(program.canonical(f"{m.module}.{n}") for n in _public_names(program, m, set()))
    return found


def _public_names(program: Program, m: ModuleFacts, seen: set[str]) -> set[str]:
    seen.add(m.module)
    listed = _literal_all(m)
    if listed is not None:
        return listed
    names = {symbol.rpartition(".")[2] for symbol in m.imports if symbol.rpartition(".")[0] == m.module}
    names.update(f.name for f in m.functions if f.symbol == f"{m.module}.{f.name}")
    names.update(c.symbol.rpartition(".")[2] for c in m.classes if c.symbol.rpartition(".")[0] == m.module)
    names.update(a.target.rpartition(".")[2] for a in m.assigns if a.target.rpartition(".")[0] == m.module)
    for star in m.star_imports:
        split = program.module_split(star)
        inner = program.modules.get(split[0]) if split is not None and not split[1] else None
        if inner is not None and inner.module not in seen:
            names |= _public_names(program, inner, seen)
    return {n for n in names if not n.startswith("_")}


def _literal_all(m: ModuleFacts) -> set[str] | None:
    """`__all__` when one plain assignment binds it to a literal list or tuple of strings; None
    when it is missing or built otherwise (every public name is then taken: more, never fewer)."""
    binds = [a for a in m.assigns if a.target == f"{m.module}.__all__"]
    if len(binds) != 1 or binds[0].op != "=" or binds[0].conditional or binds[0].value.__class__ is not Seq:
        return None
    items = binds[0].value.items  # type: ignore[union-attr]
    if not all(i.__class__ is Const and isinstance(i.value, str) for i in items):
        return None
    return {i.value for i in items}  # type: ignore[union-attr]


def link(program: Program, results: Iterable[DialectResult], exports: Iterable[str] = ()) -> tuple[list[Entry], list[ExtractionIssue]]:
    cands: list[Candidate] = []
    issues: list[ExtractionIssue] = []
    for r in results:
        cands.extend(r.candidates)
        issues.extend(r.issues)
    cands = _merge_same_symbol(_apply_overlays(cands))
    _assign_identity(program, cands)
    attach_schemas(program, (c.entry for c in cands))

    by_symbol: dict[str, list[str]] = {}
    by_key: dict[str, Candidate] = {}
    for c in cands:
        by_key[c.entry.key] = c
        for s in c.symbols:
            by_symbol.setdefault(s, []).append(c.entry.key)

    for c in cands:
        keys: set[str] = set()
        for r in c.reach:
            if r.startswith("key:"):
                if r[4:] in by_key:
                    keys.add(r[4:])
                continue
            for k in by_symbol.get(r, ()) or by_symbol.get(program.canonical(r), ()):
                keys.add(k)
        keys.discard(c.entry.key)
        c.entry.reaches = sorted(keys)

    wanted = set(exports)
    wanted_symbols = {program.canonical(w.replace(":", ".")) for w in wanted if ":" in w or "." in w}
    wanted_symbols |= published(program)
    queue: deque[str] = deque()
    for c in cands:
        c.entry.exported = False
        if c.entry.root or c.entry.name in wanted or c.entry.key in wanted or (c.symbols & wanted_symbols):
            c.entry.root = True
            queue.append(c.entry.key)
    while queue:
        key = queue.popleft()
        entry = by_key[key].entry
        if entry.exported:
            continue
        entry.exported = True
        queue.extend(k for k in entry.reaches if not by_key[k].entry.exported)

    issues.extend(unfollowable_reach(program, cands))
    issues.extend(unrecognised_reach(program, cands))
    issues.extend(rebound_reach(program, cands))
    entries = sorted((c.entry for c in cands), key=lambda e: (e.kind, e.key))
    # One note per thing not followed: a dialect that meets the same registration twice (a graph
    # node reached along two edges) reports it once.
    unique: dict[tuple[str, int | None, str], ExtractionIssue] = {}
    for i in sorted(issues, key=lambda i: (i.path, i.line or 0, i.message)):
        unique.setdefault((i.path, i.line, i.message), i)
    return entries, list(unique.values())
