"""Screens kept with a linked surface, so that a later run's head reuses what that surface's scans
found empty (receipt/extract/screens.py).

An incremental receipt does not build its base: the base's surface comes from the surface cache.
Its dialects' screens are stored beside it, bound to the very same surface binding (tool code,
interpreter, tree, config) and to the facts digests that surface records, and sealed by a sha256 of
their bytes: a missing, corrupt, truncated or foreign entry is ignored (the head computes every
screen, as without one). It only ever accelerates; nothing in it decides.

What is kept, per module (by path; the facts by the digests the surface records): the scan sites
whose screen selected nothing in it (most: a site rarely finds anything in a module), the
selections of the others that can be said as where each selected object is in the module's facts
(`_placed_items`), and one set for all of them: every index key they read, with the keys of every
name resolution they read followed to any depth (`canon_reads`), each as a 32-bit hash. A
selection holding an object the module's facts do not hold (made by the screen) is not kept: the
head computes it again. Kept selections matter where most modules select something: the MCP
dialect's call sites (every call of a repository function) were computed again in most modules of
awslabs/mcp. A module with a read no comparison can vouch for
(`ALWAYS`), or a key that is not text, keeps nothing. Hashes only make the check coarser, never
laxer: a key that changed has the hash of a changed key, so two keys sharing a hash can only make a
module computed again. The keys `modules`, `_by_import` and `_suffix` of one name share a hash
(`_module_for` reads them together: a third of the keys, for nothing).

Reuse (`prior_memo`): the base's program is rebuilt from this run's facts objects (the head's for
the files both revisions share, the base's own, extracted from their blobs, for those that differ)
and must have exactly the digests the surface records, file by file; else nothing is reused. The
memo then compares it with the head's program as within one run (`ScreenMemo.attach`,
`changed_keys`): every key a changed module defines, every difference of the tree-wide indexes.
"""

from __future__ import annotations

import hashlib
import json
import sys
import zlib
from array import array
from pathlib import Path
from typing import Any, Iterable, NamedTuple

import orjson

from receipt.extract import gc_paused
from receipt.extract.cache import touch, write_atomic
from receipt.extract.program import calls_in
from receipt.extract.screens import _NOTHING, _TREE_WIDE, ALWAYS, CANONICAL, ScreenMemo, _Kept, changed_keys, effects_placed

FORMAT = "screens-v5"  # bump when the layout below changes (v5: selections kept by place, effects by digest)
_MERGED = {"modules": "M", "_by_import": "M", "_suffix": "M"}


def key_hash(key: tuple[str, str]) -> int:
    """A read key's 32-bit hash, the same in every process (zlib's CRC-32 of its text)."""
    tag, name = key
    return zlib.crc32(f"{_MERGED.get(tag, tag)}\x00{name}".encode("utf-8", "surrogatepass"))


def digests_seal(digests: dict[str, str]) -> str:
    """sha256 of a surface's facts digests (path -> digest): what the stored screens were computed from."""
    return hashlib.sha256(json.dumps(digests, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def kept_file(root: Path, folder: str, bound: dict[str, str], kept: str) -> Path:
    """The file of what is kept with the surface stored under `bound` (`kept`: its format)."""
    key = hashlib.sha256(json.dumps({**bound, "kept": kept}, sort_keys=True).encode()).hexdigest()
    return root / folder / key[:2] / f"{key}.zjson"


def _file(root: Path, bound: dict[str, str]) -> Path:
    return kept_file(root, "screens", bound, FORMAT)


class Kept:
    """Screens read back from an entry: path -> (sites whose screen selected nothing, hashes of what
    they read, the JSON of [[site, its selection as `_placed_items` wrote it], ...] for the others
    kept, or ""); and `effects`, the program's `effects_by_receiver` by where each effect is
    (screens.effects_placed), or None (not kept: the base's program is then built again)."""

    __slots__ = ("modules", "effects")

    def __init__(self, modules: dict[str, tuple[list[str], array, str]], effects: dict[str, tuple] | None = None):
        self.modules = modules
        self.effects = effects


# -- selections, kept as where each selected object is in its module's facts ------------------------
#
# A place is a list: ["A"|"E"|"F"|"C", i] an assignment, effect, function or class of the module (in
# facts order); ["a"|"e", i, k] the k-th call inside the value of assignment i / the call of effect i
# (`calls_in` order); ["f"|"d"|"r", i, k] the k-th call, decorator or returned expression of
# function i. An item is kept as a list of its parts (a tuple's, or the one object it is): a part is
# [0, value] for text, a number, a flag or None, [1, place] for an object of the facts.

_FACT_LISTS = (("A", "assigns"), ("E", "effects"), ("F", "functions"), ("C", "classes"))
_FUNCTION_LISTS = (("f", "calls"), ("d", "decorators"), ("r", "returns_exprs"))
_PLAIN = (str, int, bool, type(None))


def _places_of(m: Any, wanted: set[int]) -> dict[int, list[Any]]:
    """The place of each object of `m`'s facts whose id is in `wanted` (as far as found)."""
    found: dict[int, list[Any]] = {}

    def see(obj: Any, place: list[Any]) -> bool:
        i = id(obj)
        if i in wanted and i not in found:
            found[i] = place
        return len(found) == len(wanted)

    for tag, name in _FACT_LISTS:
        for i, fact in enumerate(getattr(m, name)):
            if see(fact, [tag, i]):
                return found
    for i, a in enumerate(m.assigns):
        for k, call in enumerate(calls_in(a.value)):
            if see(call, ["a", i, k]):
                return found
    for i, e in enumerate(m.effects):
        for k, call in enumerate(calls_in(e.call)):
            if see(call, ["e", i, k]):
                return found
    for i, fn in enumerate(m.functions):
        for tag, name in _FUNCTION_LISTS:
            for k, expr in enumerate(getattr(fn, name)):
                if see(expr, [tag, i, k]):
                    return found
    return found


def _placed_items(m: Any, items: list[Any]) -> list[Any] | None:
    """`items` (a screen's selection in module `m`) as places and plain values; None when one part
    is neither (an object the screen made, a container)."""
    rows = [item if item.__class__ is tuple else (item,) for item in items]
    objects = {id(part) for row in rows for part in row if not isinstance(part, _PLAIN)}
    places = _places_of(m, objects) if objects else {}
    if len(places) != len(objects):
        return None
    out = []
    for item, row in zip(items, rows):
        parts = [[0, part] if isinstance(part, _PLAIN) else [1, places[id(part)]] for part in row]
        out.append([item.__class__ is tuple, parts])
    return out


def _at(m: Any, place: list[Any], inside: dict[tuple[str, int], list[Any]]) -> Any:
    """The object at `place` in `m`'s facts (ValueError when there is none). `inside`: the calls
    inside an assignment's value or an effect's call, listed once per module read."""
    tag = place[0]
    if len(place) == 2 and place[1].__class__ is int:
        name = _FACTS_BY_TAG.get(tag)
        if name is not None:
            return getattr(m, name)[place[1]]
    elif len(place) == 3 and place[1].__class__ is int and place[2].__class__ is int:
        i, k = place[1], place[2]
        name = _FUNCTION_BY_TAG.get(tag)
        if name is not None:
            return getattr(m.functions[i], name)[k]
        if tag == "a" or tag == "e":
            calls = inside.get((tag, i))
            if calls is None:
                calls = inside[(tag, i)] = calls_in(m.assigns[i].value if tag == "a" else m.effects[i].call)
            return calls[k]
    raise ValueError("not a place")


_FACTS_BY_TAG = dict(_FACT_LISTS)
_FUNCTION_BY_TAG = dict(_FUNCTION_LISTS)


def _items_at(m: Any, kept: list[Any]) -> list[Any] | None:
    """The selection `_placed_items` kept, made of `m`'s own objects; None when the entry does not
    say one (the screen is then computed again)."""
    out = []
    inside: dict[tuple[str, int], list[Any]] = {}
    try:
        for whole, parts in kept:
            values = tuple(_part(m, part, inside) for part in parts)
            if not values or (not whole and len(values) != 1):
                return None
            out.append(values if whole is True else values[0])
    except (ValueError, IndexError, TypeError, AttributeError, KeyError):
        return None
    return out


def _part(m: Any, part: list[Any], inside: dict[tuple[str, int], list[Any]]) -> Any:
    """One part of a kept item (see `_placed_items`); ValueError when it is neither kind."""
    kind, value = part
    if kind == 0 and isinstance(value, _PLAIN):
        return value
    if kind == 1:
        return _at(m, value, inside)
    raise ValueError("not a part")


def _selections(text: str) -> dict[str, list]:
    """A module's kept selections by site, from the text an entry holds; empty when it is not
    what `_encode_stored` wrote (each screen is then computed again)."""
    try:
        rows = orjson.loads(text)
    except orjson.JSONDecodeError:
        return {}
    if not isinstance(rows, list) or not all(isinstance(x, list) and len(x) == 2 and isinstance(x[0], str) and isinstance(x[1], list) for x in rows):
        return {}
    return {site: items for site, items in rows}


class KeptMemo(ScreenMemo):
    """A memo whose results for the base come from an entry (`Kept`), for the head's program.

    Attached to the head's program, it compares it with the base's (`changed_keys`, as within one
    run) and keeps a module's kept screens when no key they read, nor any key of a name resolution
    they read, is among the changed ones. What the head computes again is recorded as usual
    (`recording`); `carried` keeps, per module, the hashes of what it took from the entry."""

    def __init__(self, kept: Kept, base_program: Any, shared: Iterable[Any], recording: bool) -> None:
        super().__init__()
        self.recording = recording
        self.base, self.kept, self.shared = base_program, kept, list(shared)
        self.carried: dict[str, array] = {}
        # Without recording: module -> (facts, the sites whose kept screen selected nothing, the kept
        # selections of the others). An entry per site and module, as recording keeps them, was
        # 100,000 tuples at 5,000 files.
        self.reusable: dict[str, tuple[Any, list[str], str]] = {}

    def get(self, site: str, module: str, facts: Any) -> list | None:
        found = self.reusable.get(module)
        if found is not None and found[0] is facts:
            if site in found[1]:
                self.reused += 1
                return _NOTHING
            if found[2]:
                # Read from the text each time a site asks (a few per module): kept parsed, every
                # module's selections were 15-20 MB of an awslabs/mcp head's peak.
                kept = _selections(found[2]).get(site)
                items = _items_at(facts, kept) if kept is not None else None
                if items:
                    self.reused += 1
                    return items
        return super().get(site, module, facts)

    def attach(self, program: Any) -> None:
        if self.program is program:
            return
        if self.program is not None:
            # A second program: what was carried (with no read set of its own) held for the first
            # one only, so nothing of it is reused (one memo serves one link today).
            self.entries.clear()
            self.carried.clear()
            self.reusable.clear()
            self.program = program
            return
        base, self.base = self.base, None
        if callable(base):  # made from the program it is compared with (pipeline `_prior_screens`)
            base = base(program)
        if base is not None:
            changed = changed_keys(base, program)
            # A key no hash stands for (not text): nothing can be vouched for.
            dirty = {key_hash(k) for k in changed} if all(isinstance(k[1], str) for k in changed) else None
            modules, base_modules = program.modules, base.modules
            for facts in self.shared if dirty is not None else ():
                found = self.kept.modules.get(facts.path)
                name = facts.module
                if found is None or modules.get(name) is not facts or base_modules.get(name) is not facts:
                    continue
                sites, hashes, selected = found
                if not dirty.isdisjoint(hashes):
                    continue
                if not self.recording:  # nothing kept for a later program: one entry per module
                    self.reusable[name] = (facts, sites, selected)
                    continue
                self.carried[name] = hashes
                for site in sites:  # (a kept selection is not carried: recorded, the head computes it again)
                    self.entries[(site, name)] = (facts, _NOTHING, _CARRIED)
        self.kept = None
        self.shared = []
        self.program = program


_CARRIED: frozenset = frozenset()  # the reads of a result taken from an entry (its module's hashes: `KeptMemo.carried`)


class _Spoiled:
    """The reads of a name resolution no comparison can vouch for (ALWAYS, a key not text)."""


_SPOILED = _Spoiled()
_COUNT_SHIFT = 40  # a name resolution's place in `StoreMemo.store`: its start | its length << 40
_AT_MASK = (1 << _COUNT_SHIFT) - 1


class StoreMemo(ScreenMemo):
    """A memo that records only what an entry keeps (`encode`), as it is computed: for a program
    linked alone whose screens are stored, never reused within the run.

    A `ScreenMemo` keeps every result with its read set, each key a tuple: what comparing two
    programs of one run needs, and at 1,500 files some 270,000 keys, most of a recording run's
    extra memory (232 MB peak instead of 160). An entry keeps less, and so does this memo: per
    module, the sites that selected nothing and the 32-bit hashes of what they read; per name
    resolution, the hashes of every key it read, with those of the resolutions it read in turn
    (each recorded before it, `Program._recorded_canonical`): a run of one array, 8 hashes on
    average. The keys are
    hashed when a screen ends or a name is resolved, and let go; the entry's body is made as soon as
    the dialects are done (`release`), before the surface is linked and encoded.

    `originals`: the ids of the run's own facts objects (see `encode`)."""

    def __init__(self, originals: set[int]) -> None:
        super().__init__()
        self.originals = originals
        # module name -> [facts, sites that selected nothing, hashes read, names whose resolution was
        # read, how many of those two there were when their repeats were last dropped]
        self.kept: dict[str, list[Any]] = {}
        self.body: bytes | None = None
        # Every name resolution's hashes, one after the other; `canon_reads` maps a name to where
        # its run is (`_span`): an int per name instead of an object holding them.
        self.store = array("I")

    def attach(self, program: Any) -> None:
        if self.program is not None and self.program is not program:
            raise RuntimeError("a StoreMemo records one program")
        self.program = program

    def get(self, site: str, module: str, facts: Any) -> list | None:
        return None

    def _hashed(self, reads: set) -> tuple[list[int], list[str]] | None:
        """(hashes of the keys `reads` holds, names whose resolution it read); None when one is
        ALWAYS, not text, or a resolution that cannot be vouched for."""
        canon = self.program.canon_reads
        hashes: list[int] = []
        names: list[str] = []
        for key in reads:
            tag, name = key
            if tag == CANONICAL:
                found = canon.get(name)
                if found is None or found is _SPOILED:
                    return None
                names.append(name)
            elif isinstance(tag, str) and isinstance(name, str) and key != ALWAYS:
                hashes.append(key_hash(key))
            else:
                return None
        return hashes, names

    def put(self, site: str, module: str, facts: Any, items: list, reads: set) -> None:
        self.computed += 1
        placed = _placed_items(facts, items) if items else None
        if items and placed is None:
            return  # a selection not said by places is computed again by the head
        hashed = self._hashed(reads) if isinstance(site, str) else None
        if hashed is None:
            return  # this site is computed again by the head (as a ScreenMemo keeps no such result)
        found = self.kept.get(module)
        if found is None:
            found = self.kept[module] = [facts, [], array("I"), [], 0, []]
        elif found[0] is not facts:
            raise RuntimeError("one module, two facts objects")
        if placed is None:
            found[1].append(site)
        else:
            found[5].append([site, placed])
        hashes, names = found[2], found[3]
        hashes.extend(hashed[0])
        names.extend(hashed[1])
        # A module's sites mostly read the same keys: its repeats are dropped whenever they have
        # doubled it (an array and a list: a set per module was a third of this memo's memory).
        if len(hashes) + len(names) > 2 * found[4] + 64:
            found[2] = array("I", sorted(set(hashes)))
            found[3] = list(dict.fromkeys(names))
            found[4] = len(found[2]) + len(found[3])

    def listed(self, reads: set) -> Any:
        hashed = self._hashed(reads)
        if hashed is None:
            return _SPOILED
        hashes, names = hashed
        out = set(hashes)
        canon = self.program.canon_reads
        for name in names:
            out.update(self.span(canon[name]))
        store = self.store
        at = len(store)
        store.extend(sorted(out))
        return at | (len(out) << _COUNT_SHIFT)

    def span(self, where: int) -> array:
        """The hashes of a name resolution, from the int `listed` returned for it."""
        at = where & _AT_MASK
        return self.store[at : at + (where >> _COUNT_SHIFT)]

    def release(self) -> None:
        program = self.program
        if program is None or isinstance(program, _Kept):
            return
        self.body = _encode_stored(self, program.modules, program.canon_reads, effects_placed(program))
        program.__dict__.pop("_recording_", None)  # see ScreenMemo.release
        self.kept = {}
        self.store = array("I")
        self.program = _Kept({}, *({} for _ in _TREE_WIDE))


def _encode_stored(memo: StoreMemo, modules: dict[str, Any], canon: dict[str, Any], effects: dict[str, tuple]) -> Packed | None:
    """The body of a StoreMemo's entry: each module's hashes with those of every name resolution
    it read, and the program's effects by where each one is."""
    meta: list[list[Any]] = []
    blob = array("I")
    kept, memo.kept = memo.kept, {}
    while kept:  # each module's record let go as it is written: the body is made at the run's peak
        name, (facts, sites, hashes, names, _, selected) = kept.popitem()
        if facts is not modules.get(name) or id(facts) not in memo.originals:
            continue
        out = set(hashes)
        for other in names:
            found = canon.get(other)
            if found.__class__ is not int:  # resolved again since (a cycle), not to be vouched for
                break
            out.update(memo.span(found))
        else:
            # A module's selections as one text, read only if the head reuses them (a list per part
            # of every item was 15 MB more at the head's peak on awslabs/mcp).
            meta.append([facts.path, sites, len(out), orjson.dumps(selected).decode() if selected else ""])
            blob.extend(sorted(out))
    return _body(meta, blob, _placed_json(effects))


def _placed_json(effects: dict[str, tuple]) -> list[Any]:
    """`effects` (screens.effects_placed) as JSON: [paths, [[receiver, digest (hex), [path index, ...] or null], ...]]."""
    paths: dict[str, int] = {}
    out = []
    for key, (digest, where) in effects.items():
        out.append([key, digest.hex(), None if where is None else [paths.setdefault(p, len(paths)) for p in where]])
    return [list(paths), out]


def _placed_of(data: Any) -> dict[str, tuple]:
    """What `_placed_json` wrote; ValueError when it is not that."""
    paths, keys = data
    if not all(p.__class__ is str for p in paths):
        raise ValueError("not a path")
    out: dict[str, tuple] = {}
    fromhex = bytes.fromhex
    for key, digest, where in keys:
        if key.__class__ is not str or digest.__class__ is not str or len(digest) != 32:
            raise ValueError("not a receiver's effects")
        if where is not None and (where.__class__ is not list or not all(p.__class__ is int and p >= 0 for p in where)):
            raise ValueError("not where a receiver's effects are")
        out[key] = (fromhex(digest), None if where is None else tuple([paths[p] for p in where]))
    return out


class Packed(NamedTuple):
    """An entry's body as it is written: its sha256 and its bytes compressed."""

    sha256: str
    data: bytes


def _body(meta: list[list[Any]], blob: array, effects: list[Any] | None = None) -> Packed | None:
    """The body (the meta's length, the meta as JSON, the effects' length, the effects as JSON
    (`_placed_json`, null when not kept), the hashes), digested and compressed piece by piece:
    made when a run is at its peak, it is never held whole (its parts were 3 copies)."""
    if not meta:
        return None
    if sys.byteorder != "little":
        blob.byteswap()
    with gc_paused():
        head = orjson.dumps(meta)
        placed = orjson.dumps(effects)
    del meta[:]
    digest, packer = hashlib.sha256(), zlib.compressobj(1)
    parts = []
    for piece in (len(head).to_bytes(8, "little"), head, len(placed).to_bytes(8, "little"), placed, blob):
        digest.update(piece)
        parts.append(packer.compress(piece))
    parts.append(packer.flush())
    return Packed(digest.hexdigest(), b"".join(parts))


def encode(memo: ScreenMemo, originals: set[int]) -> Packed | None:
    """The body of an entry: what `memo` holds for the program it was last attached to, for the
    modules whose facts are the run's own facts of their path (`originals`: their ids; a module the
    program rewrote for its project's imports is left out: it is never reused). None when nothing
    is worth keeping."""
    program = memo.program
    if program is None:
        return None
    if isinstance(memo, StoreMemo):
        memo.release()
        return memo.body
    modules = program.modules
    canon = memo.canon_reads
    carried: dict[str, array] = getattr(memo, "carried", {})
    hashes: dict[Any, int] = {}
    by_module: dict[str, tuple[Any, list[str], set]] = {}
    spoiled: set[str] = set()
    for (site, name), (facts, items, reads) in memo.entries.items():
        if items or name in spoiled:
            continue
        if facts is not modules.get(name) or id(facts) not in originals or not isinstance(site, str) or ALWAYS in reads:
            spoiled.add(name)
            continue
        found = by_module.get(name)
        if found is None:
            found = by_module[name] = (facts, [], set())
        found[1].append(site)
        if reads is not _CARRIED:
            found[2].update(reads)
    meta: list[list[Any]] = []
    blob = array("I")
    for name, (facts, sites, reads) in by_module.items():
        if name in spoiled:
            continue
        out: set[int] = set(carried.get(name, ()))
        seen: set[str] = set()
        todo = list(reads)
        ok = True
        while todo:
            key = todo.pop()
            tag, key_name = key
            if tag == CANONICAL:
                if key_name in seen:
                    continue
                seen.add(key_name)
                more = canon.get(key_name)
                if more is None or ALWAYS in more:
                    ok = False
                    break
                todo.extend(more)
                continue
            h = hashes.get(key)
            if h is None:
                if not isinstance(tag, str) or not isinstance(key_name, str):
                    ok = False
                    break
                h = hashes[key] = key_hash(key)
            out.add(h)
        if not ok:
            continue
        meta.append([facts.path, sites, len(out)])
        blob.extend(sorted(out))
    return _body(meta, blob)


def decode(body: bytes | memoryview) -> Kept:
    """The screens of an entry's body; ValueError (or another exception) when it is not one."""
    size = int.from_bytes(body[:8], "little")
    at = 8 + size
    more = int.from_bytes(body[at : at + 8], "little")
    with gc_paused():
        meta = orjson.loads(body[8:at])
        placed = orjson.loads(body[at + 8 : at + 8 + more])
        effects = None if placed is None else _placed_of(placed)
    blob = array("I")
    if blob.itemsize != 4:
        raise ValueError("no 32-bit array type here")
    blob.frombytes(body[at + 8 + more :])
    if sys.byteorder != "little":
        blob.byteswap()
    modules: dict[str, tuple[list[str], array]] = {}
    names: dict[str, str] = {}  # one object per site name (a few dozen, each in most modules)
    at = 0
    for row in meta:
        path, sites, count = row[:3]
        selected = row[3] if len(row) == 4 else ""
        if len(row) not in (3, 4) or not isinstance(path, str) or not isinstance(count, int) or count < 0 or not all(isinstance(s, str) for s in sites):
            raise ValueError("not a module's screens")
        if not isinstance(selected, str):  # read when used (`_selections`), its items then (`_items_at`)
            raise ValueError("not a module's selections")
        modules[path] = ([names.setdefault(s, s) for s in sites], blob[at : at + count], selected)
        at += count
    if at != len(blob):
        raise ValueError("not what was stored")
    return Kept(modules, effects)


def unpacked(body: Packed) -> Kept:
    """The screens `body` holds, as `load` reads them back."""
    return decode(zlib.decompress(body.data))


def store(root: Path | None, bound: dict[str, str], digests: dict[str, str], body: Packed) -> bool:
    """Write screens for the surface stored under `bound`, linked from facts with `digests`: a line
    of JSON (what it is bound and sealed to), then the body compressed (made so when the dialects
    ended: `StoreMemo.release`, so that the linking after them never holds it whole); the whole a
    zlib stream like every entry of the cache, stored as it is (level 0: compressed already)."""
    if root is None:
        return False
    head = {"bound": bound, "format": FORMAT, "digests": digests_seal(digests), "sha256": body.sha256}
    text = json.dumps(head, separators=(",", ":")).encode("ascii")  # no raw newline in it
    return write_atomic(_file(root, bound), zlib.compress(text + b"\n" + body.data, 0))


def stored(root: Path | None, bound: dict[str, str]) -> bool:
    """Whether an entry for the surface under `bound` exists (what it holds is checked by `load`)."""
    return root is not None and _file(root, bound).is_file()


def load(root: Path | None, bound: dict[str, str], digests: dict[str, str]) -> Kept | None:
    """The screens stored for the surface under `bound` linked from facts with `digests`, or None
    (missing, corrupt, sealed for anything else)."""
    if root is None:
        return None
    f = _file(root, bound)
    try:
        data = zlib.decompress(f.read_bytes())
        end = data.find(b"\n")
        entry = json.loads(data[:end])
        if end < 0 or entry.get("bound") != bound or entry.get("format") != FORMAT:
            raise ValueError("entry computed from something else")
        body = zlib.decompress(memoryview(data)[end + 1 :])
        del data
        if entry.get("digests") != digests_seal(digests) or entry.get("sha256") != hashlib.sha256(body).hexdigest():
            raise ValueError("not what was stored")
        kept = decode(body)
    except Exception:  # noqa: BLE001 - missing, corrupt or bound to other inputs: computed again
        return None
    touch(f)
    return kept
