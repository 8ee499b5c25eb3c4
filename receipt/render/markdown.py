"""Receipt -> GFM markdown: the text a reviewer reads in the PR comment.

Pure function of the receipt and the options. Every string derived from analysed code is escaped
with `escape.md` while the view model is built; the template only sees escaped `Md` values (and
ints), and the jinja environment refuses to print anything else, so an unescaped value cannot
slip into the output even from a user's own template.

Size budget: when the text is longer than `max_chars`, the least important parts go first (the
unchanged-surface details, the skipped-file list), then the middle of each severity group's
change list (info first, regressions last), then the extraction-error list, then the long header
fields; the title, the verdict, the counts and the footer always stay.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

import jinja2
from pydantic import BaseModel

from receipt.models import Change, Dynamic, Entry, ExtractionIssue, Receipt, entry_key
from receipt.render.escape import Md, md, md_join, trusted
from receipt.render.traffic import shrink, traffic_view

DEFAULT_TEMPLATE = "receipt.md.j2"
DEFAULT_MAX_CHARS = 60000

SEVERITIES = ("regression", "warning", "info")
_GROUP_TITLE = {"regression": "Regressions", "warning": "Warnings", "info": "Info"}
_GROUP_NOUN = {"regression": "regressions", "warning": "warnings", "info": "info changes"}

# Visible-character limits per value, applied before escaping (escaping may grow a value ~5x).
_NAME = 120
_SCOPE = 60
_MESSAGE = 300
_VALUE = 160
_PATH = 160
_REV = 60
_COMPARED = 120
_FLAG = 60
_MAX_FLAGS = 10
_MAX_PATHS = 10
_MAX_ISSUES = 50  # listed extraction errors / skipped files
_MAX_SURFACE_ROWS = 300

_HEX = re.compile(r"^[0-9a-f]{4,64}$")
_OMITTED_NOTE = "see the JSON receipt / job artifact"


# -- template loading ---------------------------------------------------------------------------


def load_template_text(name: str = DEFAULT_TEMPLATE) -> str:
    """A shipped template: from the `receipt.templates` resource package in a wheel, else from the
    source tree's top-level templates/ (editable installs do not map that package)."""
    try:
        from importlib.resources import files

        return files("receipt.templates").joinpath(name).read_text(encoding="utf-8")
    except (ImportError, OSError):
        import receipt

        return (Path(receipt.__file__).resolve().parent.parent / "templates" / name).read_text(encoding="utf-8")


def _finalize(value: Any) -> Any:
    # Only escaped (or explicitly trusted) text and numbers may be printed.
    if isinstance(value, (Md, int)):
        return value
    raise TypeError(
        f"receipt template printed an unescaped {type(value).__name__}; pass strings through |md"
    )


def _md_join_filter(items: Iterable[Md], sep: str = ", ") -> Md:
    return md_join(list(items), sep)


def _num(n: int) -> Md:
    return Md(f"{int(n):,}")


def _plural_filter(n: int, one: str, many: str) -> Md:
    # one/many are literals of the (trusted) template.
    return Md(_plural(int(n), one, many))


@lru_cache(maxsize=8)
def _compile(template_text: str) -> jinja2.Template:
    env = jinja2.Environment(
        autoescape=False,  # escaping is markdown-specific and explicit: see escape.md
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        finalize=_finalize,
    )
    env.filters["md"] = md
    env.filters["num"] = _num
    env.filters["plural"] = _plural_filter
    env.filters["md_join"] = _md_join_filter
    return env.from_string(template_text)


# -- values ---------------------------------------------------------------------------------------


def _dynamic_expr(value: Any) -> Optional[str]:
    if isinstance(value, Dynamic):
        return value.dynamic
    if isinstance(value, dict) and set(value) == {"dynamic"} and isinstance(value["dynamic"], str):
        return value["dynamic"]
    return None


def compact_value(value: Any, *, nested: bool = False) -> str:
    """A short, deterministic, JSON-ish rendering of a before/after value (not yet escaped)."""
    expr = _dynamic_expr(value)
    if expr is not None:
        return f"dynamic: {expr}"
    if isinstance(value, BaseModel):
        return compact_value(value.model_dump(mode="json"), nested=nested)
    if value is None:
        return "null" if nested else "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False) if nested else value
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(compact_value(v, nested=True) for v in value) + "]"
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: str(kv[0]))
        return "{" + ", ".join(f"{k}: {compact_value(v, nested=True)}" for k, v in items) + "}"
    return f"<{type(value).__name__}>"  # never repr(): it may hold memory addresses


# Attribute values an entry has when nothing is declared: an added or removed entry is shown by
# what is notable about it (its safety attributes always, the rest only when not the default), so the
# table cell says "dangerous: true, approval: never" instead of a wall of defaults cut mid-word.
_ENTRY_DEFAULTS: dict[str, Any] = {
    "trust_tier": "autonomous",
    "read_only": False,
    "idempotent": False,
    "open_world": True,
    "replayable": False,
    "deterministic": False,
    "conditional": False,
    "model": None,
}
_MEMBERSHIP_SUFFIXES = (".added", ".removed")


def entry_summary(value: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in value.items():
        if k == "signature" and isinstance(v, dict):
            out["params"] = [p.get("name", "?") for p in v.get("params") or [] if isinstance(p, dict)]
        elif k not in _ENTRY_DEFAULTS or v != _ENTRY_DEFAULTS[k]:
            out[k] = v
    return out


def _display(change_id: str, value: Any) -> str:
    if isinstance(value, dict) and change_id.endswith(_MEMBERSHIP_SUFFIXES):
        value = entry_summary(value)
    return compact_value(value)


def _short_sha(sha: str) -> Md:
    return md(sha[:7]) if _HEX.match(sha) else md(sha, _REV)


def _rev_view(rev: str, sha: str) -> dict[str, Md]:
    short = _short_sha(sha)
    if rev.lower() == sha.lower():  # a bare sha says nothing more spelled out twice
        return {"rev": short, "sha": short, "label": short}
    return {"rev": md(rev, _REV), "sha": short, "label": Md(f"{md(rev, _REV)} ({short})")}


def _location(path: Optional[str], line: Optional[int]) -> Md:
    if not path:
        return trusted("—")
    where = path if line is None else f"{path}:{line}"
    return md(where, _PATH)


def _plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


# -- rows -----------------------------------------------------------------------------------------


def _change_row(change: Change) -> dict[str, Md]:
    s = change.subject
    subject = f"{md(s.kind, _SCOPE)} **{md(s.name, _NAME)}**"
    if s.scope:
        subject += f" · scope {md(s.scope, _SCOPE)}"
    text = f"{md(change.id, _SCOPE)}: {md(change.message, _MESSAGE)}"
    fp = change.fingerprint
    text += f" · `{fp}`" if _HEX.match(fp) else f" · {md(fp, 64)}"
    if change.accepted is not None:
        text += f" · **accepted**: {md(change.accepted.reason, _MESSAGE)}"
        if change.accepted.expires:
            text += f" (until {md(change.accepted.expires, 40)})"
    values = f"{md(_display(change.id, change.before), _VALUE)} → {md(_display(change.id, change.after), _VALUE)}"
    return {
        "subject": Md(subject),
        "change": Md(text),
        "transition": Md(values),
        "location": _location(s.path, s.line),
    }


def _flag(name: str, value: Any) -> Optional[str]:
    """One attribute for the surface table: shown only when it differs from the safe default."""
    expr = _dynamic_expr(value)
    if expr is not None:
        return f"{name}: dynamic: {expr}"
    return name if value is True else None


def _entry_attributes(e: Entry) -> str:
    parts: list[str] = []
    if e.kind == "agent":
        tier = _dynamic_expr(e.trust_tier)
        parts.append(f"trust: dynamic: {tier}" if tier is not None else f"trust: {e.trust_tier}")
        if e.model is not None:
            model = _dynamic_expr(e.model)
            parts.append(f"model: dynamic: {model}" if model is not None else f"model: {e.model}")
        parts += [f for f in (_flag("replayable", e.replayable), _flag("deterministic", e.deterministic)) if f]
        if e.reaches:
            parts.append(f"reaches {len(e.reaches)}")
    else:
        parts += [f for f in (_flag("dangerous", e.dangerous),) if f]
        approval = _dynamic_expr(e.approval)
        parts.append(f"approval: dynamic: {approval}" if approval is not None else f"approval: {e.approval}")
        for name, value in (("read-only", e.read_only), ("idempotent", e.idempotent)):
            f = _flag(name, value)
            if f:
                parts.append(f)
        # Shown when it differs from the framework's default: MCP tools are open-world unless they
        # say otherwise (openWorldHint), tools of other frameworks are not open-world unless declared.
        if isinstance(e.open_world, bool) and e.open_world is not (e.dialect in ("mcp", "fastmcp")):
            parts.append("open-world" if e.open_world else "closed-world")
        elif _dynamic_expr(e.open_world) is not None:
            parts.append(f"open-world: dynamic: {_dynamic_expr(e.open_world)}")
    if e.conditional:
        parts.append("conditional")
    return ", ".join(parts)


def _surface_rows(receipt: Receipt) -> Optional[tuple[list[dict[str, Md]], int]]:
    head = (receipt.surfaces or {}).get("head")
    if head is None:
        return None
    changed = {c.subject.key or entry_key(c.subject.kind, c.subject.scope or "", c.subject.name) for c in receipt.changes}
    entries = sorted(
        (e for e in head.entries() if e.exported and e.key not in changed),
        key=lambda e: (e.kind, e.scope, e.name, e.path, e.line),
    )
    if not entries:
        return None
    rows = []
    for e in entries[:_MAX_SURFACE_ROWS]:
        name = md(e.name, _NAME) if not e.scope else Md(f"{md(e.name, _NAME)} · scope {md(e.scope, _SCOPE)}")
        rows.append(
            {
                "name": name,
                "kind": md(e.kind, _SCOPE),
                "attributes": md(_entry_attributes(e), _MESSAGE),
                "location": _location(e.path, e.line),
            }
        )
    return rows, len(entries)


def _issue_item(issue: ExtractionIssue) -> Md:
    where = _location(issue.path, issue.line)
    return Md(f"{where} — {md(issue.reason, _SCOPE)}: {md(issue.message, _MESSAGE)}")


# -- view model -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Cut:
    """What the size budget leaves in; `keep` None = every change."""

    surface: bool = True
    skipped_list: bool = True
    error_list: bool = True
    keep: Optional[int] = None
    full_header: bool = True


@dataclass
class _Prepared:
    """Everything escaped once; views for each budget attempt only slice these lists."""

    head: dict[str, Any]
    groups: list[tuple[str, list[dict[str, Md]]]]
    errors: list[Md]
    skipped: list[Md]
    error_count: int
    skipped_count: int
    surface: Optional[tuple[list[dict[str, Md]], int]]
    footer: dict[str, Any]

    @property
    def total(self) -> int:
        return sum(len(rows) for _, rows in self.groups)


def _nothing_recognised(receipt: Receipt) -> Optional[Md]:
    """"nothing recognised under PATHS": an empty surface is stated, never a quiet "no changes"."""
    if not receipt.nothing_recognised:
        return None
    if not receipt.paths:
        return trusted("nothing recognised in the whole tree (no agent or tool of a supported framework)")
    shown = md_join([md(p, _PATH) for p in receipt.paths[:_MAX_PATHS]])
    more = f" and {len(receipt.paths) - _MAX_PATHS:,} more" if len(receipt.paths) > _MAX_PATHS else ""
    return Md(f"nothing recognised under {shown}{more} (no agent or tool of a supported framework)")


def _counts(receipt: Receipt) -> Md:
    """Counted from the changes themselves, so the line always matches the groups below it.

    An accepted change is counted once, as accepted, whatever its severity."""
    nothing = _nothing_recognised(receipt)
    if not receipt.changes and nothing is not None and not receipt.errors:
        return nothing
    if not receipt.changes:
        if receipt.errors:
            return trusted(
                "no changes found in the files that could be read; "
                + _plural(len(receipt.errors), "file", "files")
                + " could not be analysed (see below)"
            )
        return trusted("no changes to the exported agent surface")
    open_ = {sev: 0 for sev in SEVERITIES}
    accepted = 0
    for c in receipt.changes:
        if c.accepted is not None:
            accepted += 1
        else:
            open_[c.severity] += 1
    parts = [
        _plural(open_["regression"], "regression", "regressions"),
        _plural(open_["warning"], "warning", "warnings"),
        f"{open_['info']:,} info",
    ]
    if accepted:
        parts.append(f"{accepted:,} accepted")
    return trusted(", ".join(parts))


def _prepare(receipt: Receipt, header_comment: Optional[str], footer_note: Optional[str]) -> _Prepared:
    flags = [md(f, _FLAG) for f in receipt.verdict.flags[:_MAX_FLAGS]]
    if len(receipt.verdict.flags) > _MAX_FLAGS:
        flags.append(trusted(f"and {len(receipt.verdict.flags) - _MAX_FLAGS:,} more"))
    paths = [md(p, _PATH) for p in receipt.paths[:_MAX_PATHS]]
    if len(receipt.paths) > _MAX_PATHS:
        paths.append(trusted(f"and {len(receipt.paths) - _MAX_PATHS:,} more"))
    head = {
        "header_comment": trusted(header_comment) if header_comment else None,
        "title": trusted("Behavior receipt"),
        "verdict": trusted("PASS" if receipt.verdict.ok else "FAIL"),
        "fail_on": md(receipt.verdict.fail_on, 20),
        "counts": _counts(receipt),
        "flags": flags,
        "compared": md(receipt.compared, _COMPARED),
        "base": _rev_view(receipt.base.rev, receipt.base.sha),
        "head": _rev_view(receipt.head.rev, receipt.head.sha),
        "paths": paths,
        "exported": {"agents": receipt.summary.agents, "tools": receipt.summary.tools},
        # with changes (or errors) the counts line is taken; the empty surface gets its own line
        "nothing_recognised": _nothing_recognised(receipt) if receipt.changes or receipt.errors else None,
    }
    by_severity: dict[str, list[dict[str, Md]]] = {sev: [] for sev in SEVERITIES}
    for change in receipt.changes:  # the diff stage sorted them; keep that order within a group
        by_severity[change.severity].append(_change_row(change))
    groups = [(sev, rows) for sev, rows in by_severity.items() if rows]
    tool = receipt.tool
    footer = {
        "footer_note": trusted(footer_note) if footer_note else None,
        "tool_line": Md(
            f"{md(tool.name, 60)} {md(tool.version, 40)} · {md(receipt.schema_, 60)}"
            f" · surface sha256: base {md(receipt.base.surface_sha256[:12], 12)},"
            f" head {md(receipt.head.surface_sha256[:12], 12)}"
        ),
    }
    return _Prepared(
        head=head,
        groups=groups,
        errors=[_issue_item(i) for i in receipt.errors[:_MAX_ISSUES]],
        skipped=[_issue_item(i) for i in receipt.skipped[:_MAX_ISSUES]],
        error_count=len(receipt.errors),
        skipped_count=len(receipt.skipped),
        surface=_surface_rows(receipt),
        footer=footer,
    )


def _allocate(groups: list[tuple[str, list[Any]]], keep: Optional[int]) -> dict[str, int]:
    """How many rows of each group survive: regressions first, then warnings, then info."""
    sizes = {sev: len(rows) for sev, rows in groups}
    if keep is None:
        return sizes
    out: dict[str, int] = {}
    for sev in SEVERITIES:  # groups are already in severity order; this is the priority order
        if sev in sizes:
            out[sev] = min(sizes[sev], keep)
            keep -= out[sev]
    return out


def _view(p: _Prepared, cut: _Cut) -> dict[str, Any]:
    kept = _allocate(p.groups, cut.keep)
    groups = []
    for sev, rows in p.groups:
        k = kept[sev]
        first = (k + 1) // 2  # the middle goes: the first and the last rows stay visible
        groups.append(
            {
                "severity": trusted(sev),
                "title": trusted(_GROUP_TITLE[sev]),
                "noun": trusted(_GROUP_NOUN[sev]),
                "count": len(rows),
                "head": rows[:first],
                "tail": rows[len(rows) - (k - first) :] if k - first else [],
                "omitted": len(rows) - k,
            }
        )
    omitted = p.total - sum(kept.values())
    issues = None
    if p.error_count or p.skipped_count:
        issues = {
            "errors": p.error_count,
            "skipped": p.skipped_count,
            "error_items": p.errors if cut.error_list else [],
            "errors_more": p.error_count - (len(p.errors) if cut.error_list else 0),
            "skipped_items": p.skipped if cut.skipped_list else [],
            "skipped_more": p.skipped_count - (len(p.skipped) if cut.skipped_list else 0),
        }
    surface = None
    if p.surface is not None and cut.surface:
        rows, count = p.surface
        surface = {"rows": rows, "count": count, "more": count - len(rows)}
    head = dict(p.head)
    if not cut.full_header:
        # Long ref names are the only unbounded-looking part left: show the commits alone.
        head.update(compared=trusted("(ref names not shown, to fit the comment)"), paths=[], flags=head["flags"][:1])
        for side in ("base", "head"):
            head[side] = {**head[side], "label": head[side]["sha"]}
    return {
        **head,
        "shortened": {"omitted": omitted, "total": p.total, "note": trusted(_OMITTED_NOTE)} if omitted else None,
        "omitted_note": trusted(_OMITTED_NOTE),
        "groups": groups,
        "issues": issues,
        "surface": surface,
        "surface_omitted": p.surface is not None and not cut.surface,
        **p.footer,
    }


def _tidy(text: str) -> str:
    """LF only, no trailing spaces, no runs of blank lines, exactly one final newline."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    for line in lines:
        line = line.rstrip(" \t")
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


# -- entry point ----------------------------------------------------------------------------------


def render_markdown(
    receipt: Receipt,
    *,
    max_chars: int = DEFAULT_MAX_CHARS,
    header_comment: Optional[str] = None,
    footer_note: Optional[str] = None,
    template_text: Optional[str] = None,
) -> str:
    """The receipt as GFM text of at most `max_chars` characters (see the module docstring).

    `header_comment` (a hidden marker) and `footer_note` are trusted and printed verbatim.
    `template_text` replaces the shipped template. Raises ValueError when even the minimal
    receipt (verdict, counts, footer) does not fit in `max_chars`.
    """
    template = _compile(template_text if template_text is not None else load_template_text())
    prepared = _prepare(receipt, header_comment, footer_note)
    traffic = traffic_view(receipt)  # None without --traces

    def attempt(cut: _Cut) -> str:
        return _tidy(template.render(**_view(prepared, cut), traffic=traffic if cut.surface else shrink(traffic)))

    for cut in (_Cut(), _Cut(surface=False), _Cut(surface=False, skipped_list=False)):
        text = attempt(cut)
        if len(text) <= max_chars:
            return text
    for error_list, full_header in ((True, True), (False, True), (False, False)):
        base = _Cut(surface=False, skipped_list=False, error_list=error_list, full_header=full_header)
        found = _fit_changes(attempt, base, prepared.total, max_chars)
        if found is not None:
            return found
    raise ValueError(f"max_chars={max_chars} is too small for the receipt's verdict, counts and footer")


def _fit_changes(attempt: Callable[[_Cut], str], base: _Cut, total: int, max_chars: int) -> Optional[str]:
    """The longest text keeping the most changes that fits: binary search on the number kept."""
    best: Optional[str] = None
    lo, hi = 0, total  # invariant: the answer, if any, is in [lo, hi]
    while lo <= hi:
        mid = (lo + hi) // 2
        text = attempt(replace(base, keep=mid))
        if len(text) <= max_chars:
            best, lo = text, mid + 1
        else:
            hi = mid - 1
    return best
