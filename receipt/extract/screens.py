"""Screens: what a dialect's whole-program scan selects in one module, kept with what selecting it read.

A dialect's scan site (every call of every module, every function, ...) mostly finds nothing: a
screen is a pure function of one module's facts and the linked program's answers that returns the
few items of that module the dialect must look at (`Program.scan`). Its result depends only on
that module's facts and on the program index keys read while computing it (names looked up, hit
or miss: a failed lookup turns into a hit when a changed module defines the name), which
`Program` records. A `ScreenMemo` keeps each result with that read set, so the next program of
the same run (the head after the base) reuses it for a module with the very same facts object
whenever no index key it read differs between the two programs. Anything the memo cannot prove
equal is computed again: it can make a run faster, never change what a run finds.
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Any, Iterator

# The Program indexes resolution reads (attribute names). While a screen computes, each is seen
# through a `Recorded` view that notes the keys asked for; the memo compares them between programs.
INDEXES = ("modules", "functions", "classes", "assigns", "imports", "module_of", "effects_by_receiver", "homes", "_by_import", "_suffix")
# Indexes that depend on the whole tree (its layout, every module's name, where receivers resolve),
# compared whole between programs; the others are built from each module's own definitions.
_TREE_WIDE = ("homes", "_by_import", "_suffix", "effects_by_receiver")
WHOLE = "*"  # (WHOLE, index): the whole index was read (iterated, measured)
ALWAYS = (WHOLE, WHOLE)  # a read no comparison can vouch for: the result is never reused
_NOTHING: list = []  # the selection of most screens, shared (never mutated: `scan` only iterates it)
CANONICAL = "canonical"  # (CANONICAL, name): `Program.canonical(name)`, by the keys its resolution read
# Scan sites whose screen reads one field of a module's functions (their return expressions):
# computed again on a module read lazily, they decode a few percent of it. A head reads lazily a
# module whose base screens all selected nothing but for these (pipeline `_lazy_paths`); what is
# read lazily or not never changes what is found, only what reading costs.
LIGHT_SITES = frozenset({"openai-agents.factories"})


class Recorded:
    """A read-only view of one Program index that adds each key asked for, found or not, to the
    reads of the screen its program is computing (`Program._reads`).

    Only the reading methods of a dict exist here: a screen that tried anything else would fail
    loudly rather than read something unrecorded."""

    __slots__ = ("data", "tag", "owner")

    def __init__(self, data: dict, tag: str, owner: Any) -> None:
        self.data, self.tag, self.owner = data, tag, owner

    def get(self, key: Any, default: Any = None) -> Any:
        self.owner._reads.add((self.tag, key))
        return self.data.get(key, default)

    def __getitem__(self, key: Any) -> Any:
        self.owner._reads.add((self.tag, key))
        return self.data[key]

    def __contains__(self, key: Any) -> bool:
        self.owner._reads.add((self.tag, key))
        return key in self.data

    def _whole(self) -> dict:
        self.owner._reads.add((WHOLE, self.tag))
        return self.data

    def __iter__(self) -> Iterator:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())

    def keys(self):  # noqa: ANN201 - a dict's views
        return self._whole().keys()

    def values(self):  # noqa: ANN201
        return self._whole().values()

    def items(self):  # noqa: ANN201
        return self._whole().items()


def changed_keys(old: Any, new: Any) -> set[tuple[str, Any]]:
    """Every (index, key) whose answer may differ between two programs, and (WHOLE, index) for each
    index with any such key.

    A run shares the facts objects of unchanged files between its revisions, so a module whose
    facts are not the very same object is a changed one (a module rewritten for its project's
    imports is one in every program). The definition indexes (functions, classes, assigns,
    imports, module_of) are built from each module's own facts, in module order: only the keys a
    changed module defines, in either program, can answer differently. The others depend on the
    whole tree (its layout, every module's name, where each receiver resolves) and are compared
    whole."""
    out: set[tuple[str, Any]] = {ALWAYS}
    changed = [m for name, m in old.modules.items() if new.modules.get(name) is not m]
    changed += [m for name, m in new.modules.items() if old.modules.get(name) is not m]
    by_tag: dict[str, set[Any]] = {tag: set() for tag in INDEXES}
    for m in changed:
        by_tag["modules"].add(m.module)
        by_tag["imports"].update(m.imports)
        by_tag["functions"].update(f.symbol for f in m.functions)
        by_tag["classes"].update(c.symbol for c in m.classes)
        by_tag["assigns"].update(a.target for a in m.assigns)
    by_tag["module_of"] = by_tag["functions"] | by_tag["classes"] | by_tag["assigns"]
    for tag in _TREE_WIDE:
        a, b = getattr(old, tag), getattr(new, tag)
        if a is b:  # one index both programs share (a base's kept tree under its head's: screenstore)
            continue
        differ = by_tag[tag]
        differ.update(a.keys() ^ b.keys())
        # `==` on tuples and lists compares identical facts by identity first: quick, and exact.
        if tag == "effects_by_receiver" and isinstance(old, _Kept) and old.placed:  # kept by where each effect is
            differ.update(_placed_differ(a, effects_placed(new), {m.path for m in changed}))
        elif tag == "effects_by_receiver" and isinstance(old, _Kept):  # kept as the effects alone
            differ.update(k for k, v in a.items() if k in b and _effects(b[k]) != v)
        else:
            differ.update(k for k, v in a.items() if k in b and b[k] != v)
    for tag, keys in by_tag.items():
        if keys:
            out.add((WHOLE, tag))
            out.update((tag, k) for k in keys)
    return out


def _stale_names(canon_reads: dict[str, tuple], dirty: set) -> set[str]:
    """Every name whose resolution read a changed key, directly or through the resolution of
    another name it read ((CANONICAL, other) among its reads), to any depth."""
    readers: dict[str, list[str]] = {}
    stale: set[str] = set()
    todo: list[str] = []
    for name, reads in canon_reads.items():
        if not dirty.isdisjoint(reads):
            todo.append(name)
        for key in reads:
            if key[0] == CANONICAL:
                readers.setdefault(key[1], []).append(name)
    while todo:
        name = todo.pop()
        if name not in stale:
            stale.add(name)
            todo.extend(readers.get(name, ()))
    return stale


def effects_placed(program: Any) -> dict[str, tuple[bytes, tuple[str, ...] | None]]:
    """`program.effects_by_receiver` said by where each effect is: per receiver, (a 128-bit
    blake2b digest of its (method, effect) pairs in order, each as its module's path, its place
    among that module's effects and the method; the paths of those modules, sorted), the paths
    None when one is an effect in no module's facts (`Program._index_passed`'s of an assignment:
    nowhere to compare). Equal digests in two programs whose modules at those paths are the same
    facts objects are the same effects, without comparing (nor reading) them. A digest, not the
    places: 225,000 places at 5,000 files were 25-40 MB on each side of the comparison."""
    # Each effect's place as one int (its module's number << 32 | its place): an object per effect
    # was 64 MB at this run's peak at 5,000 files.
    modules = list(program.modules.values())
    named = [m.path.encode("utf-8", "surrogatepass") + b"\0" for m in modules]
    at: dict[int, int] = {}
    for n, m in enumerate(modules):
        at.update(zip(map(id, m.effects), itertools.count(n << 32)))
    out: dict[str, tuple[bytes, tuple[str, ...] | None]] = {}
    low = (1 << 32) - 1
    for key, pairs in program.effects_by_receiver.items():
        h = hashlib.blake2b(digest_size=16)
        where: set[int] | None = set()
        for method, effect in pairs:
            found = at.get(id(effect))
            if found is None:
                where = None
                h.update(b"\1\2")
            else:
                h.update(b"%b%d\0%b\2" % (named[found >> 32], found & low, method.encode("utf-8", "surrogatepass")))
                if where is not None:
                    where.add(found >> 32)
        out[key] = (h.digest(), None if where is None else tuple(sorted(modules[n].path for n in where)))
    return out


def _placed_differ(old: dict[str, tuple], new: dict[str, tuple], changed: set[str]) -> Iterator[str]:
    """The receivers both index whose effects may differ: placed differently, or placed in a
    module that changed (by path, `changed`), or made by a program (not compared)."""
    for key, (digest, where) in old.items():
        found = new.get(key)
        if found is None:
            continue
        if found[0] != digest or where is None or found[1] is None or not changed.isdisjoint(found[1]):
            yield key


class _Kept:
    """What `ScreenMemo.release` keeps of a program: what `changed_keys` reads of it. `placed`: its
    effects are kept by where each one is (`effects_placed`), not as the effects."""

    canon_reads: dict[str, tuple] = {}  # merged into the memo's already

    def __init__(self, modules: dict, homes: dict, by_import: dict, suffix: dict, effects_by_receiver: dict, placed: bool = False) -> None:
        self.modules, self.homes, self._by_import, self._suffix, self.effects_by_receiver = modules, homes, by_import, suffix, effects_by_receiver
        self.placed = placed


class ScreenMemo:
    """Screen results of one run's programs: (site, module) -> (module facts, selected items, reads).

    Every kept result holds for `program`, the last program attached; attaching another one drops
    each result a changed key of the two programs reaches (see `Program.scan`)."""

    def __init__(self) -> None:
        self.entries: dict[tuple[str, str], tuple[Any, list, frozenset]] = {}
        # name -> the keys its resolution read, for every (CANONICAL, name) a kept result read
        self.canon_reads: dict[str, tuple] = {}
        self.program: Any = None
        self.recording = True  # False: the programs to come reuse results, none keeps any
        # One object per distinct read key and per distinct read set: most keys recur across the
        # read sets of many modules and names, and most modules' screens read the same few keys
        # (without this, the memo was most of a 5,000-file run's peak memory).
        self._keys: dict[tuple[str, Any], tuple[str, Any]] = {}
        self._sets: dict[frozenset, frozenset] = {}
        self.reused = self.computed = 0

    def attach(self, program: Any) -> None:
        if self.program is program:
            return
        if self.program is not None and self.entries:
            self.canon_reads.update(self.program.canon_reads)
            dirty = changed_keys(self.program, program)
            stale = _stale_names(self.canon_reads, dirty)
            for name in stale:
                del self.canon_reads[name]
            dirty.update((CANONICAL, name) for name in stale)
            modules = program.modules
            self.entries = {
                key: entry for key, entry in self.entries.items()
                if modules.get(key[1]) is entry[0] and entry[2].isdisjoint(dirty)
            }
        self.program = program

    def last(self) -> None:
        """The next program is the run's last: it reuses what it can, and what it computes again
        is not recorded (no program would read it)."""
        self.release()
        self.recording = False

    def release(self) -> None:
        """Keep of the attached program only what comparing it with the next one reads (its
        modules and tree-wide indexes, see `changed_keys`), not its definition indexes: the base's
        program need not stay in memory while the head's is built."""
        program = self.program
        if program is None or isinstance(program, _Kept):
            return
        self.canon_reads.update(program.canon_reads)
        # The recording views refer to their program (`Recorded.owner`): a cycle only the
        # collector frees, and receipts run without it (gc_quiet_run). Dropped here, the program
        # goes when the run lets go of it, not at the next collection, which had to traverse it
        # whole (0.5 s at 1,500 files).
        program.__dict__.pop("_recording_", None)
        self.program = kept_of(program)

    def get(self, site: str, module: str, facts: Any) -> list | None:
        entry = self.entries.get((site, module))
        if entry is None or entry[0] is not facts:
            return None
        self.reused += 1
        return entry[1]

    def put(self, site: str, module: str, facts: Any, items: list, reads: set) -> None:
        self.computed += 1
        if ALWAYS in reads:
            return
        self.entries[(site, module)] = (facts, items or _NOTHING, self.frozen(reads))

    def frozen(self, reads: set) -> frozenset:
        """`reads` as a frozenset shared with every equal one, of keys shared likewise (a
        module's screens mostly read the same few keys)."""
        keys = self._keys
        found = frozenset([keys.setdefault(k, k) for k in reads])
        return self._sets.setdefault(found, found)

    def listed(self, reads: set) -> tuple:
        """`reads` as a tuple of shared keys: what one name's resolution read, only ever iterated
        (compared against the changed keys), at a fraction of a frozenset's size (a program
        resolves tens of thousands of names; their read sets were most of the memo's memory)."""
        keys = self._keys
        return tuple([keys.setdefault(k, k) for k in reads])


def kept_of(program: Any) -> _Kept:
    """What comparing `program` with another one reads (`changed_keys`): its modules and tree-wide
    indexes, without its definition indexes (most of a program's memory). Each receiver's
    (method, effect) pairs are kept as the effects alone: the method is the last name of the
    effect's callee, so equal effects have equal methods (a tuple per pair was most of what is kept)."""
    kept = [getattr(program, tag) for tag in _TREE_WIDE]
    kept[_TREE_WIDE.index("effects_by_receiver")] = {k: _effects(v) for k, v in program.effects_by_receiver.items()}
    return _Kept(program.modules, *kept)


def _effects(pairs: list) -> tuple:
    return tuple([effect for _, effect in pairs])
