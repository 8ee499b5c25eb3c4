"""Receipt -> a reader's view of it: what to say first, which rows, in which groups, in which words.

Shared by the markdown (PR comment) and terminal renderers, so both tell the same story. Pure and
deterministic; every string here is still *unescaped* (it may come from the analysed code): each
renderer escapes for its own medium.

What the view decides:
- one sentence per regression (what, what changed, why when a value is a default or dynamic);
- rows of at most three parts (what, change in words, where), grouped by the agent or server the
  subject belongs to; reach changes caused by an addition or removal are folded into that row;
  identical rows (an agent built twice by `.clone()`) are shown once;
- no internal keys and no dict literals: values are said in words;
- unresolved registrations and unreadable files are listed only when the PR touched them (they are
  not the same at base), the rest are counted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from receipt.models import Change, Dynamic, Entry, ExtractionIssue, Receipt, Surface

SEVERITIES = ("regression", "warning", "info")
MCP_DIALECTS = frozenset({"mcp", "fastmcp"})
MAX_SENTENCES = 10
MAX_GRAPH_EDGES = 24
MAX_PARAMS_SAID = 6  # "takes a, b, c, d, e, f and 11 more": the signature itself is in the JSON

_KIND_WORD = {"agent": "Agent", "tool": "Tool", "prompt": "Prompt", "file": "File", "config": "Config"}
_DIGEST_NOTE = re.compile(r"\s*\(sha256 [^()]*\)(?=;|$)")  # (a row may say two changes, `; ` between them)


@dataclass(frozen=True)
class Where:
    path: Optional[str]
    line: Optional[int]

    @property
    def text(self) -> str:
        if not self.path:
            return ""
        return self.path if self.line is None else f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Named:
    """A thing with a kind and a name, told apart by `context` when the name alone is ambiguous."""

    kind: str
    name: str
    context: str = ""


AGENTS = Named("agents", "")  # the group of agents with one change each


@dataclass
class Row:
    severity: str
    subject: Named
    words: str  # the change, in words, without the subject
    where: Where
    change_id: str
    fingerprint: str
    accepted: Optional[str] = None  # reason, with expiry
    reason: str = ""  # why a value is what it is (a default, a runtime source)
    folded: list[str] = field(default_factory=list)  # reach changes this row causes, in words
    places: int = 1  # identical rows merged into this one
    # (fingerprint, change id) of changes this row says already, shown as no row of their own: an
    # added entry's `attribute.dynamic` changes, whose sources its words name.
    also: list[tuple[str, str]] = field(default_factory=list)
    # The change was read through an ambiguous pairing (look-alikes elsewhere): which, and how it was
    # read. Said on every row the group touches, an added or removed one too, apart from the words so
    # that long words cannot cut it off.
    note: str = ""


@dataclass
class Group:
    title: Named
    rows: list[Row]


@dataclass(frozen=True)
class Edge:
    source: str  # agent name
    target: str  # tool/agent name
    target_kind: str
    state: str  # added | removed
    dangerous: bool  # target newly reachable while dangerous without approval
    target_scope: str = ""  # the target's server (a tool) or file (an agent): two may share a name
    source_path: str = ""  # where the agent is defined: two agents may share a name


@dataclass
class TextChange:
    """The words a model reads, before -> after, as unified-diff lines (bounded)."""

    subject: Named
    word: str  # description | instructions
    lines: list[str]
    more: int  # diff lines not shown


@dataclass
class Issue:
    where: Where
    reason: str
    message: str


@dataclass
class View:
    ok: bool
    alert: str  # CAUTION | WARNING | NOTE
    counts: dict[str, int]  # regression, warning, info, accepted
    sentences: list[Row]  # the regressions, one sentence each (capped)
    more_sentences: int
    rows: list[Row]  # every row, severity order; renderers group with `groups()`
    edges: list[Edge]
    more_edges: int
    touched_issues: list[Issue]
    touched_files: int  # the files those issues are in: a file may hold several
    untouched_files: int  # files with issues the PR did not touch
    skipped_files: int
    surface: list[tuple[Named, str, Where]]  # unchanged exported entries: (what, attributes, where)
    texts: list[TextChange] = field(default_factory=list)


# -- words ---------------------------------------------------------------------------------------------


def _dynamic(value: Any) -> Optional[str]:
    if isinstance(value, Dynamic):
        return value.dynamic
    if isinstance(value, dict) and set(value) == {"dynamic"} and isinstance(value["dynamic"], str):
        return value["dynamic"]
    return None


def _approval_words(value: Any) -> str:
    expr = _dynamic(value)
    if expr is not None:
        return f"approval decided at runtime ({expr})"
    return {"never": "no approval required", "conditional": "approval in some cases", "always": "approval always required"}.get(
        str(value), f"approval {value}"
    )


def entry_words(value: Any) -> str:
    """An added or removed entry described by what is notable about it, in words."""
    if not isinstance(value, dict):
        return ""
    parts: list[str] = []
    dangerous = value.get("dangerous")
    if _dynamic(dangerous) is not None:
        parts.append(f"dangerous decided at runtime ({_dynamic(dangerous)})")
    elif dangerous is True:
        parts.append("dangerous")
    if "approval" in value and (dangerous is not False or value.get("approval") != "never"):
        parts.append(_approval_words(value.get("approval")))
    tier = value.get("trust_tier")
    if _dynamic(tier) is not None:
        parts.append(f"trust tier decided at runtime ({_dynamic(tier)})")
    elif tier not in (None, "autonomous") and "approval" not in value:
        parts.append(f"trust tier {str(tier).replace('_', ' ')}")
    for attr, word in (("read_only", "read-only"), ("idempotent", "idempotent"), ("replayable", "replayable"), ("deterministic", "deterministic")):
        v = value.get(attr)
        if v is True:
            parts.append(word)
        elif _dynamic(v) is not None:
            parts.append(f"{word} decided at runtime ({_dynamic(v)})")
    # open_world is said only where its default is known (see `_attributes`): the default differs by framework.
    if "open_world_default" in value and isinstance(value.get("open_world"), bool) and value["open_world"] is not value["open_world_default"]:
        parts.append("open-world" if value["open_world"] else "closed-world")
    model = value.get("model")
    if model is not None:
        parts.append(f"model decided at runtime ({_dynamic(model)})" if _dynamic(model) is not None else f"model {model}")
    if value.get("conditional") is True:
        parts.append("registered conditionally")
    sig = value.get("signature")
    if isinstance(sig, dict):
        names = [str(p.get("name", "?")) for p in sig.get("params") or [] if isinstance(p, dict)]
        shown = ", ".join(names[:MAX_PARAMS_SAID]) + (f" and {len(names) - MAX_PARAMS_SAID:,} more" if len(names) > MAX_PARAMS_SAID else "")
        parts.append("takes " + shown if names else "takes no parameters")
    return ", ".join(parts)


def _strip_subject(message: str, kind: str, name: str) -> str:
    for prefix in (f"{kind} '{name}' ", f"{kind} '{name}': ", f"file '{name}': ", f"file '{name}' "):
        if message.startswith(prefix):
            return message[len(prefix) :]
    return message


def change_words(change: Change) -> str:
    """The change said in words, without its subject (the row names it), its ambiguity note (the
    row carries it: `Change.note`) and digests."""
    s = change.subject
    if change.id.endswith(".added"):
        desc = entry_words(change.after)
        return "added" + (f": {desc}" if desc else "")
    if change.id.endswith(".removed"):
        desc = entry_words(change.before)
        return "removed" + (f" (was: {desc})" if desc else "")
    words = _strip_subject(change.message, s.kind, s.name)
    # The diff appended the note it set, in parentheses: that exact tail is the note, said apart.
    tail = f" ({change.note})" if change.note else ""
    if tail and words.endswith(tail):
        words = words[: -len(tail)]
    words = _DIGEST_NOTE.sub("", words)
    return words.replace(" -> ", " → ")


# -- lookups ---------------------------------------------------------------------------------------


class _Index:
    def __init__(self, receipt: Receipt):
        surfaces = receipt.surfaces or {}
        self.head: dict[str, Entry] = {}
        self.base: dict[str, Entry] = {}
        for side, out in (("head", self.head), ("base", self.base)):
            surface: Optional[Surface] = surfaces.get(side)
            if surface is None:
                continue
            for e in sorted(surface.entries(), key=lambda e: (not e.exported, e.path, e.line)):
                out.setdefault(e.key, e)

    def entry(self, key: Optional[str]) -> Optional[Entry]:
        if not key:
            return None
        return self.head.get(key) or self.base.get(key)


_DECISIVE = ("dangerous", "approval", "trust_tier", "read_only", "open_world", "idempotent", "model")


def _reason(change: Change, entry: Optional[Entry], shown: str = "") -> str:
    """Why a decisive value is what it is: a runtime source, or a default with its reason."""
    if entry is None or change.id.endswith(("reach_added", "reach_removed", ".removed")):
        return ""
    named: set[str] = set()
    if change.id.endswith(".added"):
        attrs: tuple[str, ...] = ("dangerous", "approval") if change.severity != "info" else ()
    else:
        named = set(change.after) if isinstance(change.after, dict) else set()
        attrs = tuple(a for a in _DECISIVE if a in change.id or a in named)
        if change.severity == "regression" and entry.kind == "tool":
            attrs = tuple(dict.fromkeys(("dangerous", *attrs)))
    reasons = getattr(entry, "defaults", None) or {}
    parts: list[str] = []
    for attr in attrs:
        if attr == "model" and getattr(entry, "models", None):
            continue  # several models: the change names the one it is about, and its source
        if change.id == "attribute.dynamic" and attr in named:
            continue  # the change is this attribute's source, told in its own words (cut when long)
        expr = _dynamic(getattr(entry, attr, None))
        word = attr.replace("_", " ")
        if expr is not None:
            if expr not in change.message and expr not in shown:  # the change's own words already name the source
                said = "run time" in expr or "runtime" in expr  # the source says when already
                parts.append(f"{word} depends on {expr}" if said else f"{word} comes from {expr} at runtime")
        elif isinstance(reasons, dict) and reasons.get(attr):
            why = DEFAULT_REASONS.get(reasons[attr], f"a default ({reasons[attr]})")
            parts.append(f"{word} is {why}")
    return "; ".join(parts)


# Entry.defaults codes in words: a reviewer must see that the value is the protocol's, not the author's.
DEFAULT_REASONS: dict[str, str] = {
    "mcp:no-annotations": "the MCP protocol default: the tool declares no annotations, so clients must assume the worst",
    "mcp:not-declared": "the MCP protocol default: the tool's annotations leave this hint out",
}


def _named(change: Change, entry: Optional[Entry]) -> Named:
    if change.subject.kind == "file":  # the path is in the "where" column already
        return Named("file", change.subject.name.rsplit("/", 1)[-1])
    return Named(change.subject.kind, change.subject.name)


def _group_title(change: Change, entry: Optional[Entry]) -> Named:
    s = change.subject
    if s.kind == "agent":
        return Named("agent", s.name, s.path or "")
    if s.kind in ("tool", "prompt"):
        if s.scope:
            label = "MCP server" if entry is not None and entry.dialect in MCP_DIALECTS else "registered on"
            return Named(label, s.scope)
        return Named("module", s.path or "")
    if s.kind == "config":
        return Named("configuration", "")
    return Named("files", "")


def _accepted(change: Change) -> Optional[str]:
    if change.accepted is None:
        return None
    text = change.accepted.reason
    if change.accepted.expires:
        text += f" (until {change.accepted.expires})"
    return text


# -- the view --------------------------------------------------------------------------------------------


def _where_is(entry: Optional[Entry]) -> str:
    """What tells an entry apart from another of the same name: an agent's file, a tool's scope."""
    if entry is None:
        return ""
    return (entry.path or "") if entry.kind == "agent" else (entry.scope or "")


def _target(index: _Index, key: Any) -> tuple[str, str]:
    entry = index.entry(key) if isinstance(key, str) else None
    if entry is not None:
        return (entry.kind, entry.name)
    # Not in either surface (e.g. a receipt without surfaces): the key's own kind and name, never
    # an internal location key.
    m = re.fullmatch(r"(agent|tool|prompt):(?:[^/]*/)?([A-Za-z_][A-Za-z0-9_.-]*)", key) if isinstance(key, str) else None
    if m is not None:
        return (m.group(1), m.group(2))
    return ("entry", "that the receipt cannot name")


def build_rows(receipt: Receipt) -> tuple[list[Row], dict[tuple[str, str], Named], list[Edge]]:
    """Rows in severity order, with reach changes folded into the addition/removal that causes them."""
    index = _Index(receipt)
    membership = {
        (c.subject.key, "added" if c.id.endswith(".added") else "removed"): c
        for c in receipt.changes
        if c.id.endswith((".added", ".removed")) and c.subject.kind in ("agent", "tool", "prompt")
    }
    rows: list[Row] = []
    by_fp: dict[str, Row] = {}
    titles: dict[tuple[str, str], Named] = {}
    merged: dict[tuple[Any, ...], Row] = {}
    folds: list[tuple[Change, str, str]] = []
    told: list[tuple[str, Change]] = []
    edges: list[Edge] = []
    for c in receipt.changes:
        entry = index.entry(c.subject.key)
        if c.id.endswith((".reach_added", ".reach_removed")):
            added = c.id.endswith("reach_added")
            key = c.after if added else c.before
            kind, name = _target(index, key)
            target = index.entry(key) if isinstance(key, str) else None
            edges.append(
                Edge(c.subject.name, name, kind, "added" if added else "removed", added and c.severity == "regression",
                     target_scope=_where_is(target), source_path=c.subject.path or "")
            )
            cause = membership.get((key, "added" if added else "removed")) if isinstance(key, str) else None
            if cause is not None and cause.severity == c.severity and (cause.accepted is None) == (c.accepted is None):
                verb = "reachable from" if added else "no longer reachable from"
                folds.append((cause, cause.fingerprint, f"{verb} {c.subject.kind} {c.subject.name}"))
                continue
            note = "" if not added or c.severity == "info" else (" (dangerous, no approval required)" if c.severity == "regression" else " (dangerous or approval decided at runtime)")
            words = f"can now reach {kind} {name}{note}" if added else f"can no longer reach {kind} {name}"
        else:
            cause = membership.get((c.subject.key, "added")) if c.id == "attribute.dynamic" else None
            if cause is not None and _says_sources(cause, c):
                told.append((cause.fingerprint, c))
                continue
            words = change_words(c)
        title = _group_title(c, entry)
        row = Row(
            severity=c.severity,
            subject=_named(c, entry),
            words=words,
            where=Where(c.subject.path, c.subject.line),
            change_id=c.id,
            fingerprint=c.fingerprint,
            accepted=_accepted(c),
            reason=_reason(c, entry, words),
            note=c.note,  # set by the diff; never looked for in the message, which analysed values fill
        )
        same = (row.severity, title, row.subject, row.words, row.accepted, row.where.path)
        if same in merged:  # the same change of the same thing twice (e.g. an agent and its .clone())
            merged[same].places += 1
            by_fp.setdefault(c.fingerprint, merged[same])  # what folds into it lands on the row kept
            continue
        merged[same] = row
        titles[(row.change_id, row.fingerprint)] = title
        by_fp[c.fingerprint] = row
        rows.append(row)
    for cause, fp, text in folds:
        row = by_fp.get(fp)
        if row is not None and text not in row.folded:
            row.folded.append(text)
    for fp, c in told:
        row = by_fp.get(fp)
        if row is not None:
            row.also.append((c.fingerprint, c.id))
    _tell_apart(rows, titles)
    _gather_single_agents(rows, titles)
    return rows, titles, edges


def _says_sources(added: Change, dynamic: Change) -> bool:
    """Whether the row of an entry's addition says what its `attribute.dynamic` change says: the
    same severity and acceptance, and every runtime source it names in the addition's words
    (`entry_words`: "read-only decided at runtime (read_only)"). Such a change is no row of its
    own: three rows repeated the added row's words."""
    if added.severity != dynamic.severity or added.accepted != dynamic.accepted or not isinstance(dynamic.after, dict):
        return False
    words = change_words(added)
    sources = [_dynamic(v) for v in dynamic.after.values()]
    return bool(sources) and all(src is not None and f"({src})" in words for src in sources)


def _gather_single_agents(rows: list[Row], titles: dict[tuple[str, str], Named]) -> None:
    """Agents with one change each share one "Agents" group (each row names its agent, with its
    module when the name alone is ambiguous), instead of a heading and a table per agent."""
    def part(r: Row) -> tuple[Named, bool]:  # the comment folds info (and accepted) rows apart
        return titles[(r.change_id, r.fingerprint)], r.severity == "info" or r.accepted is not None

    sizes: dict[tuple[Named, bool], int] = {}
    for r in rows:
        sizes[part(r)] = sizes.get(part(r), 0) + 1
    single = [r for r in rows if part(r)[0].kind == "agent" and sizes[part(r)] == 1 and r.subject.kind == "agent"]
    per_part = {folded: sum(1 for r in single if part(r)[1] == folded) for folded in (False, True)}
    for r in single:
        if per_part[part(r)[1]] < 2:  # one lone agent keeps its own heading
            continue
        t = titles[(r.change_id, r.fingerprint)]
        if t.context and not r.subject.context:
            r.subject = Named(r.subject.kind, r.subject.name, t.context)
        titles[(r.change_id, r.fingerprint)] = AGENTS


def _tell_apart(rows: list[Row], titles: dict[tuple[str, str], Named]) -> None:
    """Names that would read the same get their module as context: agent groups of one name
    defined in several files, and rows of one kind and name within a group."""
    agent_paths: dict[str, set[str]] = {}
    for t in titles.values():
        if t.kind == "agent":
            agent_paths.setdefault(t.name, set()).add(t.context)
    for k, t in titles.items():
        if t.kind == "agent" and len(agent_paths[t.name]) == 1:
            titles[k] = Named("agent", t.name)
    places: dict[tuple[Named, str, str], set[str]] = {}
    for r in rows:
        title = titles[(r.change_id, r.fingerprint)]
        places.setdefault((title, r.subject.kind, r.subject.name), set()).add(r.where.path or "")
    for r in rows:
        title = titles[(r.change_id, r.fingerprint)]
        if len(places[(title, r.subject.kind, r.subject.name)]) > 1 and r.where.path:
            r.subject = Named(r.subject.kind, r.subject.name, r.where.path)


def groups(rows: Iterable[Row], titles: dict[tuple[str, str], Named]) -> list[Group]:
    """Rows grouped by agent/server/module, groups in order of first appearance (severity first)."""
    out: dict[Named, Group] = {}
    for r in rows:
        title = titles[(r.change_id, r.fingerprint)]
        out.setdefault(title, Group(title, [])).rows.append(r)
    return list(out.values())


def split_issues(receipt: Receipt) -> tuple[list[Issue], int, int, int]:
    """(issues in files the PR touched, how many files those are, how many other files have
    issues, skipped file count). Counted by file: one file may hold several unresolved
    registrations, and the receipt says how many files could not be fully read.

    Touched-ness is the pipeline's (`ExtractionIssue.touched`, the same rule that decides which
    issues are changes); an issue that does not say is listed, so nothing is hidden by omission.
    """
    problems = [*receipt.errors, *(i for i in receipt.skipped if i.kind == "unresolved")]
    mine = [i for i in problems if i.touched is not False]
    touched = [Issue(Where(i.path, i.line), i.reason, i.message) for i in mine]
    touched_files = {i.path for i in mine}
    others = {i.path for i in problems if i.touched is False} - touched_files
    skipped = sum(1 for i in receipt.skipped if i.kind != "unresolved")
    return touched, len(touched_files), len(others), skipped


def counts(receipt: Receipt) -> dict[str, int]:
    out = {"regression": 0, "warning": 0, "info": 0, "accepted": 0}
    for c in receipt.changes:
        out["accepted" if c.accepted is not None else c.severity] += 1
    return out


def alert_kind(receipt: Receipt, n: dict[str, int]) -> str:
    if not receipt.verdict.ok:
        return "CAUTION"
    if n["regression"] or n["warning"] or receipt.errors:
        return "WARNING"
    return "NOTE"


def _attributes(e: Entry) -> str:
    value: dict[str, Any] = {a: getattr(e, a) for a in ("dangerous", "read_only", "idempotent", "open_world", "replayable", "deterministic", "conditional")}
    if e.kind != "prompt":
        value["approval"] = e.approval
    if e.kind in ("agent", "prompt"):  # open-world is a property of tools (what they touch)
        value.pop("open_world")
    if e.kind == "agent":
        value.update(trust_tier=e.trust_tier, model=e.model)
    elif e.kind == "tool":  # MCP tools are open-world unless they say otherwise; other frameworks' tools are not
        value["open_world_default"] = e.dialect in MCP_DIALECTS
    words = entry_words({k: (v if not isinstance(v, Dynamic) else {"dynamic": v.dynamic}) for k, v in value.items()})
    if e.reaches:
        words += f"{', ' if words else ''}reaches {len(e.reaches)}"
    return words or "defaults only"


def unchanged_surface(receipt: Receipt, limit: int) -> tuple[list[tuple[Named, str, Where]], int]:
    head = (receipt.surfaces or {}).get("head")
    if head is None:
        return [], 0
    changed = {c.subject.key for c in receipt.changes if c.subject.key}
    entries = sorted(
        (e for e in head.entries() if e.exported and e.key not in changed),
        key=lambda e: (e.kind, e.scope, e.name, e.path, e.line),
    )
    rows = [(Named(e.kind, e.name, e.scope), _attributes(e), Where(e.path, e.line)) for e in entries[:limit]]
    return rows, len(entries)


MAX_TEXTS = 10
MAX_DIFF_LINES = 40
_TEXT_CHANGES = {"description_changed": ("description_text", "description"), "instructions_changed": ("instructions_text", "instructions")}


def _diff_lines(before: Optional[str], after: Optional[str]) -> list[str]:
    import difflib

    old = (before or "").splitlines()
    new = (after or "").splitlines()
    out = [line for line in difflib.unified_diff(old, new, lineterm="", n=1)][2:]  # no ---/+++ header
    return out


def text_changes(receipt: Receipt) -> list[TextChange]:
    """Description/instructions text diffs for the changes that changed them, and the full text of
    added entries the injection rules flagged."""
    index = _Index(receipt)
    base = {k: e for k, e in index.base.items()}
    head = {k: e for k, e in index.head.items()}
    out: list[TextChange] = []
    seen: set[tuple[str, str]] = set()
    for c in receipt.changes:
        key = c.subject.key or ""
        suffix = c.id.split(".", 1)[-1]
        if suffix in _TEXT_CHANGES:
            attr, word = _TEXT_CHANGES[suffix]
        elif c.id == "text.injection_pattern" and isinstance(c.after, dict):
            word = str(c.after.get("text", "description"))
            attr = f"{word}_text"
        else:
            continue
        if (key, word) in seen:
            continue
        seen.add((key, word))
        before = getattr(base.get(key), attr, None)
        after = getattr(head.get(key), attr, None)
        if before is None and after is None:
            continue
        lines = _diff_lines(before, after)
        if not lines:
            continue
        out.append(TextChange(Named(c.subject.kind, c.subject.name), word, lines[:MAX_DIFF_LINES], max(len(lines) - MAX_DIFF_LINES, 0)))
    return out[:MAX_TEXTS]


def build_view(receipt: Receipt, *, surface_limit: int = 300) -> tuple[View, dict[tuple[str, str], Named], int]:
    rows, titles, edges = build_rows(receipt)
    n = counts(receipt)
    regressions = [r for r in rows if r.severity == "regression" and r.accepted is None]
    touched, touched_files, untouched, skipped = split_issues(receipt)
    surface, surface_total = unchanged_surface(receipt, surface_limit)
    edges = sorted(set(edges), key=lambda e: (e.source, e.source_path, e.state, e.target_kind, e.target, e.target_scope))
    view = View(
        ok=receipt.verdict.ok,
        alert=alert_kind(receipt, n),
        counts=n,
        sentences=regressions[:MAX_SENTENCES],
        more_sentences=max(len(regressions) - MAX_SENTENCES, 0),
        rows=rows,
        edges=edges[:MAX_GRAPH_EDGES],
        more_edges=max(len(edges) - MAX_GRAPH_EDGES, 0),
        touched_issues=touched,
        touched_files=touched_files,
        untouched_files=untouched,
        skipped_files=skipped,
        surface=surface,
        texts=text_changes(receipt),
    )
    return view, titles, surface_total


def _typed(rev: str) -> str:
    # as the pipeline writes a revision into `compared`: a full sha shortened, a name as typed
    return rev[:12] if re.fullmatch(r"[0-9a-f]{40}", rev) else rev


def compared_is_plain(receipt: Receipt) -> bool:
    """True when `compared` only repeats "base -> head" (the base's label names the merge base when
    one was taken): the footer's "base X → head Y" says it already, so it is not printed twice."""
    base, head = receipt.base, _typed(receipt.head.rev)
    return receipt.compared in (f"{_typed(base.rev)} -> {head}", f"{base.rev} = {base.sha[:12]} -> {head}")


def rev_label(rev: str, sha: str) -> str:
    """`HEAD~1 (086401f)`, or the short sha alone when the revision was given as a sha."""
    short = sha[:7] if re.fullmatch(r"[0-9a-f]{7,64}", sha) else sha
    return short if rev.lower() == sha.lower() or sha.lower().startswith(rev.lower()) and len(rev) >= 7 else f"{rev} ({short})"


def plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def counts_text(view: View, receipt: Receipt) -> str:
    n = view.counts
    if not receipt.changes:
        if receipt.errors:
            return (
                "no changes found in the files that could be read; "
                + plural(len(receipt.errors), "file", "files")
                + " could not be analysed (see below)"
            )
        if view.touched_files:
            # A file the PR changed holds a registration the analyser cannot follow: what it
            # registers may have changed unseen, so "no changes" would claim more than was read.
            return (
                "no changes found in what could be read; "
                + plural(view.touched_files, "file", "files")
                + " this PR touched could not be fully analysed (see below)"
            )
        return "no changes to the exported agent surface"
    parts = [plural(n["regression"], "regression", "regressions"), plural(n["warning"], "warning", "warnings"), f"{n['info']:,} info"]
    if n["accepted"]:
        parts.append(f"{n['accepted']:,} accepted")
    return ", ".join(parts)


def kind_word(kind: str) -> str:
    return _KIND_WORD.get(kind, kind.capitalize())
