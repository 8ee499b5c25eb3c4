"""Identity: which entry at head is which entry at base.

An entry is identified by its kind, its *home* and the name a client sees (with the MCP server
name as namespace). The home is where the object lives: the server it is registered on (module +
symbol of the server object), else the module that defines it. The *slot* is the name bound to
the entry (`first` in `first = Agent(name="bot")`, the decorated function); when that does not tell
two entries of one home and name apart, their rank in source order is added.
A line number is never part of an identity, so moving code inside a file is no change.

Pairing across revisions, in stages, never guessing:

1. exact identity;
2. entries left over in one home under one name, paired in source order when both sides have as
   many (a renamed variable or function); then likewise in one file (a layout change gave the file
   another import name);
3. entries whose name is not statically known (named by a fallback such as the function name),
   by the same name expression in the same home, exactly one on each side;
4. entries left over under one client-visible (kind, namespace, name), paired only when exactly one
   remains on each side: first among the exported ones, then among all. A file move or split is
   thus no change, and a same-named decoy elsewhere makes the match ambiguous instead of stealing
   it (the moved entry is then reported as removed and added, never silently re-paired).

`unique_keys` keeps `Entry.key` (reaches, fingerprints) unique in one surface: the short
`kind:scope/name` when it is unique, qualified by home, then slot, only when it is not.
"""

from __future__ import annotations

from typing import Iterable, Sequence

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


def pair_entries(base: Iterable[Entry], head: Iterable[Entry]) -> dict[str, str]:
    """head key -> base key for every head entry that is the same thing as a base entry."""
    old = sorted(base, key=_order)
    new = sorted(head, key=_order)
    pairs: dict[str, str] = {}
    by_ident = {ident(e): e for e in old}
    left_old = {e.key: e for e in old}
    left_new: list[Entry] = []
    for e in new:
        match = by_ident.get(ident(e))
        if match is not None and match.key in left_old:
            pairs[e.key] = match.key
            del left_old[match.key]
        else:
            left_new.append(e)

    def group(entries: Iterable[Entry], key) -> dict[tuple[str, ...], list[Entry]]:  # type: ignore[no-untyped-def]
        out: dict[tuple[str, ...], list[Entry]] = {}
        for e in entries:
            out.setdefault(key(e), []).append(e)
        return out

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
    return pairs


__all__ = ["Ident", "assign_slots", "ident", "pair_entries", "unique_keys"]
