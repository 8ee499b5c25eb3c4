"""Identity: which entry at head is which entry at base.

An entry is identified by its kind, its *home* and the name a client sees (with the MCP server
name as namespace). The home is where the object lives: the server it is registered on (module +
symbol of the server object), else the module that defines it. The *slot* is the name bound to
the entry (`first` in `first = Agent(name="bot")`, the decorated function); when that does not tell
two entries of one home and name apart, their rank in source order is added.
A line number is never part of an identity, so moving code inside a file is no change.

Pairing across revisions, in stages, never guessing:

1. exact identity; entries of one home and name told apart only by their rank (several agents
   bound to one variable, or to none) are aligned like lines of a diff instead, by their content
   in source order, so an entry inserted among them is one addition rather than a shift of every
   later one; where the alignment cannot tell which is which, a `Doubt` the diff resolves;
2. entries left over in one home under one name, paired in source order when both sides have as
   many (a renamed variable or function); then likewise in one file (a layout change gave the file
   another import name);
3. entries whose name is not statically known (named by a fallback such as the function name),
   by the same name expression in the same home, exactly one on each side; the same tool of the
   same server object (home and binding) under the server's new name (a renamed server);
4. a moved folder (a monorepo's project moved under `crews/`): the same client-visible and bound
   name in files whose paths end alike (at least file and folder), longest shared end first, one
   candidate each way; then a renamed folder (`samples/` -> `demos/`), where only the file names
   are left alike: entries under one client name pair by file and bound name only when that pairs
   every one left on both sides one to one;
5. entries left over under one client-visible (kind, namespace, name), paired only when exactly one
   remains on each side: first among the exported ones, then among all. A file move or split is
   thus no change, and a same-named decoy elsewhere makes the match ambiguous instead of stealing
   it: several candidates under one name are a `Doubt`, which the diff reads by its most severe
   pairing when that reveals a regression (a look-alike cannot turn a lowered approval into a quiet
   removed + added) and says so; otherwise they stay removed and added. A group with more than
   `MAX_PAIRINGS` pairings is not weighed (a PR adding hundreds of look-alikes must not make the
   run quadratic): it stays removed and added, and says so.

`unique_keys` keeps `Entry.key` (reaches, fingerprints) unique in one surface: the short
`kind:scope/name` when it is unique, qualified by home, then slot, only when it is not.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, Iterable, Mapping, Sequence

from receipt.canonical import canonical_json
from receipt.models import Entry, entry_key

Ident = tuple[str, str, str, str, str]  # kind, scope, name, home, slot


def ident(e: Entry) -> Ident:
    return (e.kind, e.scope, e.name, e.home, e.slot)


def _client_name(e: Entry) -> tuple[str, str, str]:
    return (e.kind, e.scope, e.name)


def _order(e: Entry) -> tuple[str, int, str]:
    return (e.path, e.line, e.key)


def assign_slots(entries: Sequence[tuple[Entry, set[str]]]) -> None:
    """Set `slot`: the name bound to the entry (`symbols` denote it), made unique within its
    (kind, scope, name, home) by rank in source order only where that name does not tell apart."""
    groups: dict[tuple[str, str, str, str], list[tuple[Entry, str]]] = {}
    for e, symbols in entries:
        groups.setdefault((e.kind, e.scope, e.name, e.home), []).append((e, _symbol_label(e, symbols)))
    for group in groups.values():
        counts: dict[str, int] = {}
        for _, label in group:
            counts[label] = counts.get(label, 0) + 1
        ranks: dict[str, int] = {}
        for e, label in sorted(group, key=lambda t: _order(t[0])):
            if counts[label] == 1 and (label or len(group) == 1):
                e.slot = label
            else:
                ranks[label] = ranks.get(label, 0) + 1
                e.slot = f"{label}.{ranks[label]}" if label else str(ranks[label])


def _symbol_label(e: Entry, symbols: set[str]) -> str:
    """The name bound to the entry inside its home module (`first` for `first = Agent(...)`)."""
    names = sorted(s for s in symbols if s.rsplit(".", 1)[-1].isidentifier())
    local = [s for s in names if e.home and s.startswith(e.home + ".")] or names
    return local[0].rsplit(".", 1)[-1] if local else ""


def unique_keys(entries: Iterable[Entry]) -> None:
    """Qualify `key` only where the short key is shared, so unaffected fingerprints stay as they were."""
    groups: dict[str, list[Entry]] = {}
    for e in entries:
        e.key = e.key or entry_key(e.kind, e.scope, e.name)  # a dialect may have qualified it (clones)
        groups.setdefault(e.key, []).append(e)
    for key, group in groups.items():
        if len(group) < 2:
            continue
        homes: dict[str, int] = {}
        for e in group:
            homes[e.home] = homes.get(e.home, 0) + 1
        for e in group:
            e.key = f"{key}@{e.home}" + (f"#{e.slot}" if homes[e.home] > 1 else "")


@dataclass(frozen=True)
class Doubt:
    """Entries that are some of the same things across revisions, without telling which is which.

    The diff decides (`receipt.diff`): it pairs each base entry with the head candidate whose changes
    are the most severe, and says the pairing was ambiguous, so adding a look-alike next to an entry
    can never turn a lowered approval into a quiet "added". `default` is identity's own preference
    (head key, base key), used on ties. With `pair_all`, as many pairs as the shorter side has are
    made (entries told apart by order only: some of them are the same); without, a pair is made only
    where it shows a regression (entries elsewhere under one client name: a removal plus an unrelated
    addition stays that, unless reading it as a move would reveal something worse).
    """

    base: tuple[str, ...]
    head: tuple[str, ...]
    default: tuple[tuple[str, str], ...]
    pair_all: bool
    # More pairings than `MAX_PAIRINGS`: too many look-alikes to score every pairing (a PR adding
    # hundreds of them must not make the run quadratic). The diff then reads the group without
    # scoring: `default` when `pair_all` (identity's own alignment), else removed + added, and says so.
    unread: bool = False


@dataclass(frozen=True)
class Pairing:
    pairs: dict[str, str]  # head key -> base key, certain
    doubts: tuple[Doubt, ...] = ()
    # What the moved folders of stage 4 imply: old folder -> new folder (for notes on their files),
    # and old dotted import prefix -> new one where the move changed import names (for spellings
    # of dynamic values that name the moved modules): see `respell`.
    folders: dict[str, str] = field(default_factory=dict)
    modules: dict[str, str] = field(default_factory=dict)
    # Files whose entries all moved to one other file (`src/app/graph.py` -> `src/legacy/graph.py`):
    # old path -> new path, for notes on the file that moved with them.
    files: dict[str, str] = field(default_factory=dict)


def _renames(moved: Iterable[tuple[Entry, Entry]]) -> tuple[dict[str, str], dict[str, str]]:
    """(old folder -> new folder, old import prefix -> new) implied by entries paired as moved with
    their folder: the top of the path (and import name) they share, under its old and new parents.
    A folder implied to go two places is left out."""
    found: tuple[dict[str, set[str]], dict[str, set[str]]] = ({}, {})
    for b, h in moved:
        # Spellings of values name a module by its import name, or by its dotted path from the
        # repository root when no package layout names it (`src.legacy.graph.write.model_name`).
        homes = (b.home.split(":", 1)[-1], h.home.split(":", 1)[-1])
        by_path = (_dotted(b.path), _dotted(h.path))
        for side, sep, x, y in ((0, "/", b.path, h.path), (1, ".", *homes), (1, ".", *by_path)):
            xs, ys = x.split(sep), y.split(sep)
            n = _shared_tail(x, y, sep)
            if n < (2 if side == 0 else 1) or xs == ys:
                continue
            found[side].setdefault(sep.join(xs[: len(xs) - n + 1]), set()).add(sep.join(ys[: len(ys) - n + 1]))
    folders, modules = ({k: next(iter(v)) for k, v in d.items() if len(v) == 1 and k != next(iter(v))} for d in found)
    # Spellings of values name modules by their dotted path from the repository root too
    # (`nvidia_models.intro.main.nvllm`), whatever project the file belongs to.
    for k, v in folders.items():
        modules.setdefault(k.replace("/", "."), v.replace("/", "."))
    return folders, modules


def _dotted(path: str) -> str:
    """A file's dotted path from the repository root, as a module spelt without a package layout."""
    stem = path[: -len(".py")] if path.endswith(".py") else path
    return stem.removesuffix("/__init__").replace("/", ".")


def respell(text: str, modules: Mapping[str, str]) -> str:
    """`text` with dotted names under a moved import prefix spelt as they are after the move."""
    if not modules:
        return text
    pattern = re.compile(r"(?<![\w.])(" + "|".join(re.escape(m) for m in sorted(modules, key=len, reverse=True)) + r")(?=\.)")
    return pattern.sub(lambda m: modules[m.group(1)], text)


def move_path(path: str, folders: Mapping[str, str]) -> str:
    """`path` where it is after its folder moved (the deepest moved folder above it decides)."""
    for old in sorted(folders, key=len, reverse=True):
        if path.startswith(old + "/"):
            return folders[old] + path[len(old):]
    return path


def _label(slot: str) -> str:
    """The bound name of a slot without its rank (`agent` for `agent.3`, "" for `2`)."""
    label, dot, rank = slot.rpartition(".")
    if dot and rank.isdigit():
        return label
    return "" if slot.isdigit() else slot


# What tells entries of one place and name apart when only their rank did: everything compared or
# shown about them except where they sit (a rank-bearing key, the line) and display-only texts.
_NOT_CONTENT = frozenset({"key", "slot", "path", "line", "home", "defaults", "instructions_text", "description_text"})
_MAX_ALIGN = 200  # entries per side of one changed run aligned by similarity; beyond, by order
# Pairings (base x head candidates) of one ambiguous group the diff may score by severity; a larger
# group is read without scoring (`Doubt.unread`). Natural groups hold a few look-alikes: 32 x 32 is
# far beyond them, and scoring it costs a fraction of a second.
MAX_PAIRINGS = 1024


def _content(e: Entry) -> dict[str, Any]:
    return e.model_dump(mode="json", exclude=set(_NOT_CONTENT))


def _align(olds: list[Entry], news: list[Entry]) -> tuple[list[tuple[Entry, Entry]], list[Doubt]]:
    """Entries told apart only by order, aligned as a sequence diff aligns lines: runs of equal
    content pair, and so do the entries of a changed run with as many on each side (edited in
    place). A changed run with more on one side (an insertion next to an edit) is a `Doubt`: which
    one is the edited entry is not known; its default is the order-keeping choice with most
    attributes equal."""
    old_c, new_c = [_content(e) for e in olds], [_content(e) for e in news]
    old_j, new_j = [canonical_json(c) for c in old_c], [canonical_json(c) for c in new_c]
    sure: list[tuple[Entry, Entry]] = []
    doubts: list[Doubt] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, old_j, new_j, autojunk=False).get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            sure.extend(zip(olds[i1:i2], news[j1:j2]))
        elif op == "replace":
            default = tuple((news[j1 + b].key, olds[i1 + a].key) for a, b in _best_run(old_c[i1:i2], new_c[j1:j2]))
            unread = (i2 - i1) * (j2 - j1) > MAX_PAIRINGS
            doubts.append(Doubt(tuple(e.key for e in olds[i1:i2]), tuple(e.key for e in news[j1:j2]), default, True, unread))
    return sure, doubts


def _best_run(olds: list[dict[str, Any]], news: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """min(len) order-preserving pairs of indexes with the most equal attributes in total."""
    n, m = len(olds), len(news)
    if n > _MAX_ALIGN or m > _MAX_ALIGN:
        return [(i, i) for i in range(min(n, m))]

    def sim(a: dict[str, Any], b: dict[str, Any]) -> int:
        return sum(1 for k, v in a.items() if b.get(k) == v)

    # best[i][j]: (pairs, equal attributes) over olds[i:], news[j:]; more pairs first.
    best = [[(0, 0)] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            p, s = best[i + 1][j + 1]
            best[i][j] = max((p + 1, s + sim(olds[i], news[j])), best[i + 1][j], best[i][j + 1])
    out, i, j = [], 0, 0
    while i < n and j < m:
        p, s = best[i + 1][j + 1]
        if best[i][j] == (p + 1, s + sim(olds[i], news[j])):
            out.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return out


def _shared_tail(a: str, b: str, sep: str = "/") -> int:
    """How many trailing components (path parts, or dotted name parts) two names share."""
    n = 0
    for x, y in zip(reversed(a.split(sep)), reversed(b.split(sep))):
        if x != y:
            break
        n += 1
    return n


def _folder_moves(olds: list[Entry], news: list[Entry]) -> list[tuple[Entry, Entry]]:
    by_name: dict[tuple[str, str, str, str], tuple[list[Entry], list[Entry]]] = {}
    for side, entries in ((0, olds), (1, news)):
        for e in entries:
            by_name.setdefault((e.kind, e.scope, e.name, e.slot), ([], []))[side].append(e)
    out: list[tuple[Entry, Entry]] = []
    for bs, hs in by_name.values():
        if not bs or not hs:
            continue
        tails = {(i, j): _shared_tail(b.path, h.path) for i, b in enumerate(bs) for j, h in enumerate(hs)}
        used_b: set[int] = set()
        used_h: set[int] = set()
        for length in sorted({t for t in tails.values() if t >= 2}, reverse=True):
            at = [(i, j) for (i, j), t in tails.items() if t == length and i not in used_b and j not in used_h]
            # Counted once per length, not per candidate: many look-alikes at one length would
            # otherwise cost the square of their pairings.
            per_b, per_h = Counter(i for i, _ in at), Counter(j for _, j in at)
            for i, j in at:
                if per_b[i] == 1 and per_h[j] == 1:
                    out.append((bs[i], hs[j]))
                    used_b.add(i)
                    used_h.add(j)
    return out


def _file_name_moves(olds: list[Entry], news: list[Entry]) -> list[tuple[Entry, Entry]]:
    """A renamed folder (`samples/` -> `demos/`) keeps only its files' names: entries left under one
    client name pair by file name (and bound name) only when that pairs every one of them, on both
    sides, one to one. Any entry left over, or a file name twice on one side, and none pair: a file
    name alone (`run.py`, `agent.py`) is too common to pick one look-alike among several."""
    by_name: dict[tuple[str, str, str], tuple[list[Entry], list[Entry]]] = {}
    for side, entries in ((0, olds), (1, news)):
        for e in entries:
            by_name.setdefault(_client_name(e), ([], []))[side].append(e)
    out: list[tuple[Entry, Entry]] = []
    for bs, hs in by_name.values():
        if len(bs) < 2 or len(bs) != len(hs):
            continue  # one on each side is stage 4's; unequal sides cannot pair one to one
        at_b = {(b.path.rsplit("/", 1)[-1], b.slot): b for b in bs}
        at_h = {(h.path.rsplit("/", 1)[-1], h.slot): h for h in hs}
        if len(at_b) == len(bs) and at_b.keys() == at_h.keys():
            out.extend((at_b[k], at_h[k]) for k in sorted(at_b))
    return out


def pair_entries(base: Iterable[Entry], head: Iterable[Entry]) -> dict[str, str]:
    """head key -> base key for every head entry that is the same thing as a base entry; doubtful
    pairs as identity would choose them (the diff resolves doubts by severity: `pair_with_doubts`)."""
    pairing = pair_with_doubts(base, head)
    pairs = dict(pairing.pairs)
    for d in pairing.doubts:
        if d.pair_all:
            pairs.update(d.default)
    return pairs


# Dialects whose `scope` is the name of the server an entry is registered on (its `home` that server).
_SERVER_DIALECTS = frozenset({"mcp", "fastmcp"})


def pair_with_doubts(base: Iterable[Entry], head: Iterable[Entry]) -> Pairing:
    """The certain pairs (head key -> base key) and the groups whose pairing is ambiguous."""
    old = sorted(base, key=_order)
    new = sorted(head, key=_order)
    pairs: dict[str, str] = {}
    doubts: list[Doubt] = []

    def group(entries: Iterable[Entry], key) -> dict[tuple[str, ...], list[Entry]]:  # type: ignore[no-untyped-def]
        out: dict[tuple[str, ...], list[Entry]] = {}
        for e in entries:
            out.setdefault(key(e), []).append(e)
        return out

    # Stage 1: the same place and name. Where each is bound to a name of its own on both sides, the
    # same bound name is the same entry. Where some are told apart only by rank (several bound to one
    # variable, to none, or one variable naming only the first of them), an insertion would shift
    # every later rank: the whole group is aligned by content instead.
    place = lambda e: (e.kind, e.scope, e.name, e.home)  # noqa: E731
    old_at = group(old, place)
    for k, news in group(new, place).items():
        olds = old_at.get(k, [])
        if not olds:
            continue
        if all(e.slot and _label(e.slot) == e.slot for e in (*olds, *news)):
            by_slot = {e.slot: e for e in olds}
            pairs.update((e.key, by_slot[e.slot].key) for e in news if e.slot in by_slot)
        else:
            sure, unsure = _align(olds, news)
            pairs.update((h.key, b.key) for b, h in sure)
            doubts.extend(unsure)
    doubtful = {k for d in doubts for k in (*d.base, *d.head)}
    taken = set(pairs.values()) | doubtful
    left_old = {e.key: e for e in old if e.key not in taken}
    left_new = [e for e in new if e.key not in pairs and e.key not in doubtful]

    # Stage 2: same home and name, as many on each side: source order decides. Then the same for the
    # same file and name: its home (import name) changed only because the layout around the file did
    # (a pyproject.toml added above it makes its folder a project of its own).
    remaining_old = list(left_old.values())
    for where in (lambda e: (e.kind, e.scope, e.name, e.home), lambda e: (e.kind, e.scope, e.name, e.path)):
        olds = group(remaining_old, where)
        for k, news in group(left_new, where).items():
            if len(olds.get(k, ())) == len(news):
                for b, h in zip(olds[k], news):
                    pairs[h.key] = b.key
        left_new = [e for e in left_new if e.key not in pairs]
        taken = set(pairs.values())
        remaining_old = [e for e in remaining_old if e.key not in taken]

    # Stage 3: a name not statically known (the entry is named by a fallback): the same registered
    # name expression in the same home, exactly one on each side.
    olds = group((e for e in remaining_old if e.name_expr), lambda e: (e.kind, e.scope, e.home, e.name_expr or ""))
    for k, news in group((e for e in left_new if e.name_expr), lambda e: (e.kind, e.scope, e.home, e.name_expr or "")).items():
        if len(news) == 1 and len(olds.get(k, ())) == 1:
            pairs[news[0].key] = olds[k][0].key
    left_new = [e for e in left_new if e.key not in pairs]
    taken = set(pairs.values())
    remaining_old = [e for e in remaining_old if e.key not in taken]

    # Stage 3a: a server whose own name is not statically known is named by its variable
    # (`Entry.scope_by_variable`), which clients never see; its home is then its place among such
    # servers of its module (dialects/mcp.py `_server_homes`), not that variable. The same kind and
    # name at the same home, on such a server on both sides, exactly one on each side, is the same
    # entry under a renamed variable; a tool moved to another server has another home. A server
    # name clients see is never paired away this way.
    by_home = lambda e: (e.kind, e.name, e.home)  # noqa: E731
    olds = group((e for e in remaining_old if e.scope_by_variable), by_home)
    for k, news in group((e for e in left_new if e.scope_by_variable), by_home).items():
        if len(news) == 1 and len(olds.get(k, ())) == 1:
            pairs[news[0].key] = olds[k][0].key
    left_new = [e for e in left_new if e.key not in pairs]
    taken = set(pairs.values())
    remaining_old = [e for e in remaining_old if e.key not in taken]

    # Stage 3c: a server renamed (`FastMCP("graphiti")` -> `FastMCP("Graphiti Agent Memory")`):
    # the name it gives itself is what a client displays, never what it calls a tool by (the
    # client's own configuration names the connection). The same server object (home), the same
    # kind, tool name and binding (slot), exactly one on each side, is the same entry under the
    # server's new name. A tool moved to another server has another home and stays removed + added.
    served = lambda e: (e.kind, e.name, e.home, e.slot)  # noqa: E731
    on_server = lambda e: e.scope and e.dialect in _SERVER_DIALECTS  # noqa: E731
    olds = group((e for e in remaining_old if on_server(e)), served)
    for k, news in group((e for e in left_new if on_server(e)), served).items():
        if len(news) == 1 and len(olds.get(k, ())) == 1 and olds[k][0].scope != news[0].scope:
            pairs[news[0].key] = olds[k][0].key
    left_new = [e for e in left_new if e.key not in pairs]
    taken = set(pairs.values())
    remaining_old = [e for e in remaining_old if e.key not in taken]

    # Stage 3b: a moved folder (a project moved into `crews/`, a package renamed): its files keep
    # their path below the folder, so the same client name and bound name in files whose paths end
    # alike is the same entry. The longest shared path end decides first (so `a/x/t.py` pairs with
    # `new/a/x/t.py` before `b/x/t.py` could), and only one candidate each way at that length pairs:
    # at least the file and its folder must match, and a tie is left to stage 4. A renamed folder
    # leaves only the file names alike: they pair when every entry left under the client name does.
    moved = _folder_moves(remaining_old, left_new)
    done_old, done_new = {b.key for b, _ in moved}, {h.key for _, h in moved}
    moved += _file_name_moves([e for e in remaining_old if e.key not in done_old], [e for e in left_new if e.key not in done_new])
    for b, h in moved:
        pairs[h.key] = b.key
    left_new = [e for e in left_new if e.key not in pairs]
    taken = set(pairs.values())
    remaining_old = [e for e in remaining_old if e.key not in taken]

    # Stage 4: one client-visible name, exactly one candidate on each side; exported ones first.
    for only_exported in (True, False):
        olds = group((e for e in remaining_old if e.exported or not only_exported), _client_name)
        news = group((e for e in left_new if e.exported or not only_exported), _client_name)
        all_olds = group(remaining_old, _client_name)
        all_news = group(left_new, _client_name)
        for k, hs in news.items():
            bs = olds.get(k, [])
            if len(hs) != 1 or len(bs) != 1:
                continue
            if not only_exported and (len(all_olds.get(k, ())) != 1 or len(all_news.get(k, ())) != 1):
                continue
            pairs[hs[0].key] = bs[0].key
        left_new = [e for e in left_new if e.key not in pairs]
        taken = set(pairs.values())
        remaining_old = [e for e in remaining_old if e.key not in taken]

    # Stage 5: several candidates left under one client-visible name. Which is the moved one is not
    # known, and a PR must not be able to hide what happened to an entry by adding a look-alike: the
    # group is a Doubt the diff reads by its most severe pairing when that reveals a regression (and
    # says so); otherwise removed and added stay the honest reading. A folder move (stage 4) with a
    # same-named entry left over beside it is doubtful too, its pairs kept unless a regression reading
    # exists (a decoy placed where the moved folder's file would be cannot take the entry's place).
    olds = group(remaining_old, _client_name)
    news = group(left_new, _client_name)
    by_move = group(moved, lambda bh: _client_name(bh[0]))
    for k in sorted(set(olds) | set(news)):
        bs, hs = olds.get(k, []), news.get(k, [])
        kept = by_move.get(k, [])
        if kept and (bs or hs):
            for _, h in kept:
                del pairs[h.key]
            bs = [b for b, _ in kept] + bs
            hs = [h for _, h in kept] + hs
        elif not bs or not hs or (len(bs) == 1 and len(hs) == 1):
            continue
        if len(bs) * len(hs) > MAX_PAIRINGS:
            # Too many look-alikes to weigh: the folder moves stay paired (each was the only
            # candidate at its path), the rest removed and added; the diff says why.
            default = tuple((h.key, b.key) for b, h in kept)
            doubts.append(Doubt(tuple(e.key for e in bs), tuple(e.key for e in hs), default, bool(kept), True))
            continue
        ranked = sorted(((h, b) for b in bs for h in hs), key=lambda hb: -_shared_tail(hb[1].path, hb[0].path))
        default = tuple((h.key, b.key) for b, h in kept) + tuple((h.key, b.key) for h, b in ranked)
        doubts.append(Doubt(tuple(e.key for e in bs), tuple(e.key for e in hs), default, bool(kept)))
    folders, modules = _renames((b, h) for b, h in moved if pairs.get(h.key) == b.key)
    # An entry paired by its client name alone (stage 4) whose module moved (`app/graph.py` ->
    # `legacy/graph.py`) moved its code with it: its dynamic values name the new module's locals.
    by_key = {e.key: e for e in old}
    rehomed = [(by_key[pairs[h.key]], h) for h in new if h.key in pairs and by_key[pairs[h.key]].home != h.home]
    for k, v in _renames(rehomed)[1].items():
        modules.setdefault(k, v)
    went: dict[str, set[str]] = {}
    for b, h in rehomed:
        went.setdefault(b.path, set()).add(h.path)
    stayed = {h.path for h in new} & {b.path for b in old}
    files = {b: next(iter(hs)) for b, hs in went.items() if len(hs) == 1 and b not in stayed}
    return Pairing(pairs, tuple(doubts), folders, modules, files)


__all__ = ["Doubt", "Ident", "Pairing", "assign_slots", "ident", "move_path", "pair_entries", "pair_with_doubts", "respell", "unique_keys"]
