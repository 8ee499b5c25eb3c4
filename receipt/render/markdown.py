"""Receipt -> GFM markdown: the text a reviewer reads in the PR comment.

Layout (summary first, details folded, like the comments reviewers already like):
the verdict as a GitHub alert (CAUTION on FAIL, WARNING, NOTE) with one sentence per regression,
each linking to the file and line at the head commit; a small graph when reach changed; compact
three-column tables (what, change, where) grouped by agent or server; info, touched-but-unreadable
files, the unchanged surface and the fingerprints folded; the comparison line, binding and hashes
in the footer.

Pure function of the receipt and the options. Every string derived from analysed code is escaped
with `escape.md` (or `mermaid_label` inside the graph) while the view is built; the template only
sees escaped `Md` values (and ints), and the jinja environment refuses to print anything else.

Size budget: when the text is longer than `max_chars`, the least important parts go first (the
unchanged surface, the fingerprint list, the issue list, the graph), then changes from the end of
the list (info first, regressions last), then the long header fields; the title, the verdict, the
counts and the footer always stay.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Optional
from urllib.parse import quote

import jinja2
from pydantic import BaseModel

from receipt.models import Dynamic, Receipt
from receipt.render import view as v
from receipt.render.escape import Md, clip, md, md_join, trusted, visible
from receipt.render.traffic import shrink, traffic_view

DEFAULT_TEMPLATE = "receipt.md.j2"
DEFAULT_MAX_CHARS = 60000
DEFAULT_SERVER_URL = "https://github.com"

SEVERITIES = v.SEVERITIES

# Visible-character limits per value, applied before escaping (escaping may grow a value ~5x).
_NAME = 48  # a longer identifier would stop a table cell from wrapping (the JSON has it whole)
_RUN = 48  # the same for any unbroken run of characters in a sentence
_CONTEXT = 60
_WORDS = 240
_WORDS_BESIDE_TRAFFIC = 100  # the traffic table's third cell is long: its change cell says less
_REASON = 200
_NOTE = 400  # an ambiguous-pairing note names up to 3 places per side
_PATH_SHOWN = 48  # longer paths are shown by their tail (the link keeps the whole path)
_HEADING_PATH = 120
_REV = 60
_COMPARED = 120
_FLAG = 60
_MAX_FLAGS = 10
_MAX_PATHS = 10
_MAX_ISSUES = 30
_MAX_SURFACE_ROWS = 300
_SURFACE_SAMPLES = (100, 30)  # fewer unchanged rows before none, when the comment is over budget
_MAX_FINGERPRINTS = 300
_GRAPH_LABEL = 48

_HEX = re.compile(r"^[0-9a-f]{4,64}$")
_REPOSITORY = re.compile(r"^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$")
_SERVER = re.compile(r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~-]+)*$")
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
    return Md(v.plural(int(n), one, many))


def _environment() -> jinja2.Environment:
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
    return env


@lru_cache(maxsize=8)
def _compile(template_text: str) -> jinja2.Template:
    env = _environment()
    shipped = _precompiled(env, template_text)
    return shipped if shipped is not None else env.from_string(template_text)


# The shipped template, compiled by jinja ahead of time into a module of the package: compiling it
# took ~35 ms of every run (a third of an identical rerun's rendering). Used only when it was made
# from exactly this template text by this jinja version; anything else (a user's template, an edited
# template, another jinja) is compiled as before. Regenerate after editing templates/receipt.md.j2:
#     python -c "from receipt.render.markdown import write_precompiled; write_precompiled()"
PRECOMPILED_MODULE = "receipt.render._receipt_md_j2"


def precompiled_source(template_text: str) -> str:
    """The module `write_precompiled` writes: jinja's own code for the template (as its module loader
    stores templates), tagged with what it was made from."""
    code = _environment().compile(template_text, raw=True, defer_init=True)
    digest = hashlib.sha256(template_text.encode("utf-8")).hexdigest()
    return (
        f"# Generated from templates/{DEFAULT_TEMPLATE} by jinja2 {jinja2.__version__} (receipt.render.markdown.write_precompiled).\n"
        "# Do not edit: regenerate it.\n"
        "# fmt: off\n"
        "# ruff: noqa\n"
        f"TEMPLATE_SHA256 = {digest!r}\n"
        f"JINJA2_VERSION = {jinja2.__version__!r}\n"
        f"{code}\n"
    )


def write_precompiled() -> Path:
    target = Path(__file__).with_name(PRECOMPILED_MODULE.rsplit(".", 1)[1] + ".py")
    target.write_text(precompiled_source(load_template_text()), encoding="utf-8")
    return target


def _precompiled(env: jinja2.Environment, template_text: str) -> jinja2.Template | None:
    import importlib

    try:
        module = importlib.import_module(PRECOMPILED_MODULE)
    except ImportError:
        return None
    digest = hashlib.sha256(template_text.encode("utf-8")).hexdigest()
    if getattr(module, "TEMPLATE_SHA256", None) != digest or getattr(module, "JINJA2_VERSION", None) != jinja2.__version__:
        return None
    return env.template_class.from_module_dict(env, vars(module), env.make_globals(None))


# -- values ---------------------------------------------------------------------------------------


def compact_value(value: Any, *, nested: bool = False) -> str:
    """A short, deterministic, JSON-ish rendering of a value (not yet escaped); for logs and JSON-ish
    places only: the comment says values in words (see `view`)."""
    if isinstance(value, Dynamic):
        return f"dynamic: {value.dynamic}"
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
        return "[" + ", ".join(compact_value(x, nested=True) for x in value) + "]"
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: str(kv[0]))
        return "{" + ", ".join(f"{k}: {compact_value(x, nested=True)}" for k, x in items) + "}"
    return f"<{type(value).__name__}>"  # never repr(): it may hold memory addresses


def _short_sha(sha: str) -> Md:
    return md(sha[:7]) if _HEX.match(sha) else md(sha, _REV)


def _rev_view(rev: str, sha: str) -> dict[str, Md]:
    short = _short_sha(sha)
    if rev.lower() == sha.lower():  # a bare sha says nothing more spelled out twice
        return {"rev": short, "sha": short, "label": short}
    return {"rev": md(rev, _REV), "sha": short, "label": Md(f"{md(rev, _REV)} ({short})")}


@dataclass(frozen=True)
class Links:
    """Where `path#Lline` links point: `{server}/{repository}/blob/{sha}/...`; None = plain text."""

    server: str
    repository: str
    sha: str

    @staticmethod
    def make(server: Optional[str], repository: Optional[str], sha: str) -> Optional["Links"]:
        server = (server or DEFAULT_SERVER_URL).rstrip("/")
        if not repository or not _REPOSITORY.match(repository) or not _SERVER.match(server) or not re.fullmatch(r"[0-9a-f]{40,64}", sha):
            return None
        return Links(server, repository, sha)

    def blob(self, path: str, line: Optional[int]) -> str:
        # quote() leaves only [A-Za-z0-9_.~/-] and %XX: nothing markdown or HTML reads specially.
        anchor = f"#L{int(line)}" if line is not None and line >= 1 else ""
        return f"{self.server}/{self.repository}/blob/{self.sha}/{quote(path, safe='/')}{anchor}"

    def commit(self, sha: str) -> str:
        return f"{self.server}/{self.repository}/commit/{sha}"

    def pull(self, number: int) -> str:
        return f"{self.server}/{self.repository}/pull/{int(number)}"


def _runs(text: str) -> str:
    """Unbroken runs longer than `_RUN` clipped, so table cells can wrap instead of scrolling."""
    if len(text) <= _RUN or all(len(w) <= _RUN for w in text.split(" ")):
        return text
    return " ".join(clip(w, _RUN) for w in text.split(" "))


def _shown_path(path: str, limit: int = _PATH_SHOWN) -> str:
    """A path of at most `limit` characters: longer ones by their tail (the end says which file)."""
    if len(path) <= limit:
        return path
    parts = path.split("/")
    tail = parts[-1]
    for part in reversed(parts[:-1]):
        if len(part) + 1 + len(tail) + 2 > limit:
            break
        tail = f"{part}/{tail}"
    return clip("…/" + tail, limit) if len(tail) + 2 <= limit else "…" + tail[-(limit - 1) :]


def _where(where: v.Where, links: Optional[Links], places: int = 1, *, in_module: str = "") -> Md:
    """`path:line`, a link at the head commit when the repository is known; under a heading that
    names the module already (`in_module`), the file name alone is shown (the link keeps the path)."""
    if not where.path:
        return trusted("—")
    name = where.path.rsplit("/", 1)[-1]
    shown = _shown_path(visible(name if in_module and where.path == in_module else where.path))
    text = md(shown if where.line is None else f"{shown}:{where.line}")
    out = Md(f"[{text}]({links.blob(where.path, where.line)})") if links is not None else text
    return Md(out + (f" and {places - 1:,} more" if places > 1 else ""))


def _named(n: v.Named, bold: bool = True) -> Md:
    name = md(n.name, _NAME)
    text = f"{md(n.kind, 20)} **{name}**" if bold else f"{md(n.kind, 20)} {name}"
    if n.context:
        text += f" · {md(_shown_path(visible(n.context)), _CONTEXT)}"
    return Md(text)


def _group_title(n: v.Named) -> Md:
    if not n.name:
        return Md(md(n.kind.capitalize(), 40))
    # a heading wraps, so a module path may be long; still shown by its tail, never cut at the end
    name = md(_shown_path(visible(n.name), _HEADING_PATH), _HEADING_PATH) if n.kind == "module" else md(n.name, _NAME)
    text = f"{md(n.kind[:1].upper() + n.kind[1:], 20)} {name}"
    if n.context:
        text += f" · {md(_shown_path(visible(n.context)), _CONTEXT)}"
    return Md(text)


_LEAD = {"regression": "**regression**: ", "warning": "warning: ", "info": ""}


def _words(row: v.Row, limit: int = _WORDS) -> Md:
    """The change cell; `limit` bounds each part (a table beside other long cells passes less)."""
    text = md(_runs(visible(row.words)), limit)
    if row.folded:
        text = Md(f"{text}; {md(_runs(visible('; '.join(row.folded))), limit)}")
    if row.reason:
        text = Md(f"{text} ({md(_runs(visible(row.reason)), min(limit, _REASON))})")
    if row.note:
        text = Md(f"{text} ({md(_runs(visible(row.note)), _NOTE)})")
    if row.accepted is not None:
        return Md(f"accepted ({md(_runs(visible(row.accepted)), limit // 2)}): {text}")
    return Md(_LEAD[row.severity] + text)


def _sentence(row: v.Row, links: Optional[Links]) -> Md:
    words = md(_runs(visible(row.words)), _WORDS)
    if row.folded:
        words = Md(f"{words}; {md(_runs(visible('; '.join(row.folded))), _WORDS)}")
    text = f"{md(v.kind_word(row.subject.kind), 20)} **{md(row.subject.name, _NAME)}**"
    if row.subject.context:
        text += f" ({md(_shown_path(visible(row.subject.context)), _CONTEXT)})"
    text += f" {words}"
    if row.reason:
        text += f". Why: {md(_runs(visible(row.reason)), _REASON)}"
    if row.note:
        text += f" ({md(_runs(visible(row.note)), _NOTE)})"
    return Md(f"{text} — {_where(row.where, links, row.places)}")


# -- the graph ------------------------------------------------------------------------------------

_MERMAID_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _.-/:,")


def mermaid_label(text: str) -> Md:
    """A mermaid node label, inside double quotes: every character outside a small safe set becomes
    a mermaid entity code (`#60;`), so no quote, bracket, HTML, markdown, fence or directive can be
    formed from analysed code."""
    shown = clip(visible(text), _GRAPH_LABEL)
    return Md("".join(c if c in _MERMAID_SAFE else f"#{ord(c)};" for c in shown))


def _graph(edges: list[v.Edge], more: int, dangerous_names: set[str]) -> Optional[list[Md]]:
    if not edges:
        return None
    ids: dict[tuple[str, str, str], str] = {}
    lines: list[str] = ["graph LR"]
    # One node per thing, not per name: two tools called `search` on two servers (or two agents
    # called `Assistant` in two files) are two nodes, labelled apart by server or file.
    places: dict[tuple[str, str], set[str]] = {}
    for e in edges:
        places.setdefault(("agent", e.source), set()).add(e.source_path)
        places.setdefault((e.target_kind, e.target), set()).add(e.target_scope)

    def node(kind: str, name: str, where: str) -> str:
        if (kind, name, where) not in ids:
            ids[(kind, name, where)] = f"n{len(ids)}"
            label = f"{kind} {name}" + (f" · {_shown_path(where, 24)}" if where and len(places[(kind, name)]) > 1 else "")
            lines.append(f'  {ids[(kind, name, where)]}["{mermaid_label(label)}"]')
        return ids[(kind, name, where)]

    danger: list[str] = []
    for e in edges:
        a, b = node("agent", e.source, e.source_path), node(e.target_kind, e.target, e.target_scope)
        if e.state == "added":
            label = "added, dangerous" if e.dangerous else "added"
            lines.append(f"  {a} -->|{label}| {b}")
        else:
            lines.append(f"  {a} -.->|removed| {b}")
        if e.dangerous or e.target in dangerous_names:
            danger.append(b)
    if more:
        lines.append(f'  more["{more:,} more edges not drawn"]')
    if danger:
        lines.append("  classDef dangerous stroke:#cf222e,stroke-width:3px")
        lines.append(f"  class {','.join(sorted(set(danger), key=lambda n: int(n[1:])))} dangerous")
    return [Md(line) for line in lines]


def _fenced_diff(t: v.TextChange) -> dict[str, Any]:
    """A ```diff block of analysed text: lines made visible and clipped; the fence is longer than
    any backtick run inside, and comment openers are broken so no marker can be forged."""
    lines = [clip(visible(line), 300).replace("<!--", "<!\u2060--") for line in t.lines]
    if t.more:
        lines.append(f"… {t.more:,} more lines")
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return {
        "title": Md(f"{_named(t.subject)}, {md(t.word, 20)}"),
        "open": Md(fence + "diff"),
        "close": Md(fence),
        "lines": [Md(line) for line in lines],
    }


# -- view model -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Cut:
    """What the size budget leaves in; `keep` None = every change row."""

    surface: bool = True
    surface_rows: Optional[int] = None  # None: every prepared row
    texts: bool = True
    fingerprints: bool = True
    issue_list: bool = True
    graph: bool = True
    keep: Optional[int] = None
    full_header: bool = True


@dataclass
class _Prepared:
    """Everything escaped once; views for each budget attempt only slice these lists."""

    head: dict[str, Any]
    rows: list[tuple[str, Md, dict[str, Md]]]  # (severity, group title, row cells)
    graph: Optional[list[Md]]
    issues: Optional[dict[str, Any]]
    surface: Optional[dict[str, Any]]
    fingerprints: list[Md]
    footer: dict[str, Any]
    texts: list[dict[str, Any]]
    described: dict[str, tuple[Md, Md]]  # fingerprint -> (what, change in words), for other tables

    @property
    def total(self) -> int:
        return len(self.rows)


def _binding_line(receipt: Receipt, links: Optional[Links], server: str) -> Optional[Md]:
    b = getattr(receipt, "binding", None)
    if b is None:
        return None
    parts = []
    repository = getattr(b, "repository", "") or ""
    pr = getattr(b, "pr", None)
    base_sha, head_sha = getattr(b, "base_sha", "") or "", getattr(b, "head_sha", "") or ""
    if repository:
        where = md(repository, 120)
        if pr is not None:
            where = Md(f"{where} pull request {int(pr)}")
            if links is not None:
                where = Md(f"[{where}]({links.pull(pr)})")
        parts.append(where)
    elif pr is not None:
        parts.append(Md(f"pull request {int(pr)}"))
    for label, sha in (("base", base_sha), ("head", head_sha)):
        if sha:
            short = _short_sha(sha)
            shown = Md(f"`{short}`") if _HEX.match(sha) else short
            if links is not None and _HEX.match(sha):
                shown = Md(f"[{shown}]({links.commit(sha)})")
            parts.append(Md(f"{label} {shown}"))
    if not parts:
        return None
    return Md("Receipt for " + " · ".join(parts))


def _nothing_recognised(receipt: Receipt) -> Optional[Md]:
    """"nothing recognised under PATHS": an empty surface is stated, never a quiet "no changes"."""
    if not getattr(receipt, "nothing_recognised", False):
        return None
    if not receipt.paths:
        return trusted("nothing recognised in the whole tree (no agent or tool of a supported framework)")
    shown = md_join([md(p, _PATH_SHOWN) for p in receipt.paths[:_MAX_PATHS]])
    more = f" and {len(receipt.paths) - _MAX_PATHS:,} more" if len(receipt.paths) > _MAX_PATHS else ""
    return Md(f"nothing recognised under {shown}{more} (no agent or tool of a supported framework)")


def _prepare(
    receipt: Receipt, header_comment: Optional[str], footer_note: Optional[str], links: Optional[Links], server: str
) -> _Prepared:
    view, titles, surface_total = v.build_view(receipt, surface_limit=_MAX_SURFACE_ROWS)
    flags = [md(f, _FLAG) for f in receipt.verdict.flags[:_MAX_FLAGS]]
    if len(receipt.verdict.flags) > _MAX_FLAGS:
        flags.append(trusted(f"and {len(receipt.verdict.flags) - _MAX_FLAGS:,} more"))
    paths = [md(p, _PATH_SHOWN) for p in receipt.paths[:_MAX_PATHS]]
    if len(receipt.paths) > _MAX_PATHS:
        paths.append(trusted(f"and {len(receipt.paths) - _MAX_PATHS:,} more"))
    sentences = [_sentence(r, links) for r in view.sentences]
    if view.more_sentences:
        sentences.append(trusted(f"… and {view.more_sentences:,} more regressions, listed below"))
    nothing = _nothing_recognised(receipt)
    counted = bool(receipt.changes or receipt.errors or view.touched_files)
    head = {
        "header_comment": trusted(header_comment) if header_comment else None,
        "title": trusted("Behavior receipt"),
        "alert": trusted(view.alert),
        "verdict": trusted("PASS" if receipt.verdict.ok else "FAIL"),
        "fail_on": md(receipt.verdict.fail_on, 20),
        # With changes, errors or touched files not fully analysed the counts line says those (a
        # registration the analyser cannot follow is more than "nothing"); the empty surface gets its own line.
        "counts": nothing if nothing is not None and not counted else trusted(v.counts_text(view, receipt)),
        "nothing_recognised": nothing if counted else None,
        "sentences": sentences,
        "flags": flags,
        "compared": md(receipt.compared, _COMPARED),
        "compared_plain": v.compared_is_plain(receipt),
        "base": _rev_view(receipt.base.rev, receipt.base.sha),
        "head": _rev_view(receipt.head.rev, receipt.head.sha),
        "paths": paths,
        "exported": {"agents": receipt.summary.agents, "tools": receipt.summary.tools},
    }
    rows = []
    described: dict[str, tuple[Md, Md]] = {}
    for r in view.rows:
        group = titles[(r.change_id, r.fingerprint)]
        title = _group_title(group)
        in_module = group.name if group.kind == "module" else ""
        rows.append((r.severity if r.accepted is None else "info", title, {"what": _named(r.subject), "change": _words(r), "where": _where(r.where, links, r.places, in_module=in_module)}))
        described[r.fingerprint] = (_named_in(r.subject, group), _words(r, _WORDS_BESIDE_TRAFFIC))
    dangerous_names = {c.subject.name for c in receipt.changes if c.id == "tool.dangerous_gained"}
    issues = None
    if view.touched_issues or view.untouched_files or view.skipped_files:
        items = [
            Md(f"{_where(i.where, links)} — {md(i.reason, 40)}: {md(i.message, _WORDS)}") for i in view.touched_issues[:_MAX_ISSUES]
        ]
        issues = {
            "touched": view.touched_files,
            "listed": items,
            "more": len(view.touched_issues) - len(items),
            "untouched": view.untouched_files,
            "skipped": view.skipped_files,
            "errors": len(receipt.errors),
        }
    surface = None
    if view.surface:
        surface = {
            "rows": [{"what": _named(n), "attributes": md(_runs(visible(attrs)), _WORDS), "where": _where(w, links)} for n, attrs, w in view.surface],
            "count": surface_total,
            "more": surface_total - len(view.surface),
        }
    listed = ((r, fp, change_id) for r in view.rows for fp, change_id in ((r.fingerprint, r.change_id), *r.also) if _HEX.match(fp))
    fingerprints = [Md(f"`{fp}` {md(change_id, 60)} · {_named(r.subject, bold=False)}") for r, fp, change_id in itertools.islice(listed, _MAX_FINGERPRINTS)]
    tool = receipt.tool
    footer = {
        "footer_note": trusted(footer_note) if footer_note else None,
        "binding": _binding_line(receipt, links, server),
        "tool_line": Md(
            f"{md(tool.name, 60)} {md(tool.version, 40)} · {md(receipt.schema_, 60)}"
            f" · surface sha256: base {md(receipt.base.surface_sha256[:12], 12)},"
            f" head {md(receipt.head.surface_sha256[:12], 12)}"
        ),
    }
    return _Prepared(
        head=head,
        rows=rows,
        graph=_graph(view.edges, view.more_edges, dangerous_names),
        issues=issues,
        surface=surface,
        fingerprints=fingerprints,
        footer=footer,
        texts=[_fenced_diff(t) for t in view.texts],
        described=described,
    )


def _named_in(n: v.Named, group: v.Named) -> Md:
    """A subject outside its group's table (e.g. in the traffic table): with the server or module
    that group names, unless the group is the subject itself."""
    if group.kind == "agent" or not group.name or n.context:
        return _named(n)
    where = f"{md(group.kind, 20)} {md(_shown_path(visible(group.name)), _CONTEXT)}"
    return Md(f"{_named(n)} ({where})")


def _describer(prepared: _Prepared) -> Callable[[Any], tuple[Md, Md]]:
    def describe(change: Any) -> tuple[Md, Md]:
        found = prepared.described.get(change.fingerprint)
        if found is not None:
            return found
        # a row merged into an identical one (an agent and its .clone()): said the same way
        return _named(v.Named(change.subject.kind, change.subject.name)), md(_runs(visible(v.change_words(change))), _WORDS_BESIDE_TRAFFIC)

    return describe


def _grouped(rows: list[tuple[str, Md, dict[str, Md]]]) -> list[dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for _sev, title, cells in rows:
        out.setdefault(title, {"title": title, "rows": []})["rows"].append(cells)
    return list(out.values())


def _view(p: _Prepared, cut: _Cut) -> dict[str, Any]:
    keep = p.total if cut.keep is None else cut.keep
    kept = p.rows[:keep]  # rows are in severity order: info goes first, regressions last
    omitted = p.total - len(kept)
    main = [r for r in kept if r[0] != "info"]
    info = [r for r in kept if r[0] == "info"]
    head = dict(p.head)
    if not cut.full_header:
        # Long ref names are the only unbounded-looking part left: show the commits alone.
        head.update(compared=trusted("(ref names not shown, to fit the comment)"), compared_plain=False, paths=[], flags=head["flags"][:1])
        for side in ("base", "head"):
            head[side] = {**head[side], "label": head[side]["sha"]}
    issues = None
    if p.issues is not None:
        issues = dict(p.issues)
        if not cut.issue_list:
            issues.update(listed=[], more=issues["more"] + len(issues["listed"]))
    return {
        **head,
        "shortened": {"omitted": omitted, "total": p.total, "note": trusted(_OMITTED_NOTE)} if omitted else None,
        "graph": p.graph if cut.graph else None,
        "groups": _grouped(main),
        "info": {"count": len(info), "groups": _grouped(info)} if info else None,
        "issues": issues,
        "surface": _sample(p.surface, cut.surface_rows) if cut.surface else None,
        "surface_omitted": p.surface is not None and not cut.surface,
        "fingerprints": p.fingerprints if cut.fingerprints else [],
        "texts": p.texts if cut.texts else [],
        **p.footer,
    }


def _sample(surface: Optional[dict[str, Any]], rows: Optional[int]) -> Optional[dict[str, Any]]:
    """The unchanged surface cut to its first `rows` rows (the rest counted), to fit the budget."""
    if surface is None or rows is None or len(surface["rows"]) <= rows:
        return surface
    return {**surface, "rows": surface["rows"][:rows], "more": surface["count"] - rows}


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
    repository: Optional[str] = None,
    server_url: Optional[str] = None,
) -> str:
    """The receipt as GFM text of at most `max_chars` characters (see the module docstring).

    `header_comment` (a hidden marker) and `footer_note` are trusted and printed verbatim.
    `template_text` replaces the shipped template. `repository` (owner/name; default: the receipt's
    binding) and `server_url` (default https://github.com) make locations links to the head commit.
    Raises ValueError when even the minimal receipt (verdict, counts, footer) does not fit.
    """
    template = _compile(template_text if template_text is not None else load_template_text())
    binding = getattr(receipt, "binding", None)
    repo = repository or (getattr(binding, "repository", "") if binding is not None else "")
    head_sha = (getattr(binding, "head_sha", "") if binding is not None else "") or receipt.head.sha
    server = (server_url or DEFAULT_SERVER_URL).rstrip("/")
    links = Links.make(server, repo, head_sha)
    prepared = _prepare(receipt, header_comment, footer_note, links, server)
    traffic = traffic_view(receipt, _describer(prepared))  # None without --traces

    def attempt(cut: _Cut) -> str:
        return _tidy(template.render(**_view(prepared, cut), traffic=traffic if cut.surface else shrink(traffic)))

    cuts = [
        _Cut(),
        *(_Cut(surface_rows=n) for n in _SURFACE_SAMPLES),
        _Cut(surface=False),
        _Cut(surface=False, texts=False),
        _Cut(surface=False, texts=False, fingerprints=False),
        _Cut(surface=False, texts=False, fingerprints=False, issue_list=False),
        _Cut(surface=False, texts=False, fingerprints=False, issue_list=False, graph=False),
    ]
    for cut in cuts:
        text = attempt(cut)
        if len(text) <= max_chars:
            return text
    for full_header in (True, False):
        found = _fit_changes(attempt, replace(cuts[-1], full_header=full_header), prepared.total, max_chars)
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
