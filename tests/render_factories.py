"""Receipts built directly from the models, for the render tests (no git, no extraction)."""

from __future__ import annotations

from typing import Any, Optional

from pydantic_core import to_jsonable_python

from receipt.canonical import fingerprint
from receipt.models import (
    Accepted,
    Change,
    Dynamic,
    Entry,
    ExtractionIssue,
    Receipt,
    RevInfo,
    Subject,
    Summary,
    Surface,
    ToolInfo,
    Verdict,
    entry_key,
)

BASE_SHA = "1111111111111111111111111111111111111111"
HEAD_SHA = "2222222222222222222222222222222222222222"

# Everything a malicious tool name could try in one string.
EVIL = "`x` | <!-- --> **PASS** [link](http://e) <details>"


def change(
    change_id: str = "tool.approval_lowered",
    severity: str = "regression",
    *,
    kind: str = "tool",
    name: str = "delete_user",
    scope: Optional[str] = None,
    path: Optional[str] = "src/tools.py",
    line: Optional[int] = 12,
    before: Any = "always",
    after: Any = "never",
    message: Optional[str] = None,
    accepted: Optional[Accepted] = None,
) -> Change:
    key = entry_key(kind, scope or "", name)
    return Change(
        id=change_id,
        severity=severity,
        subject=Subject(kind=kind, name=name, scope=scope, path=path, line=line, key=key),
        before=before,
        after=after,
        message=message if message is not None else f"{kind} '{name}' {change_id.split('.', 1)[-1].replace('_', ' ')}",
        fingerprint=fingerprint(change_id, key, to_jsonable_python(before), to_jsonable_python(after)),
        accepted=accepted,
    )


def receipt(
    changes: Optional[list[Change]] = None,
    *,
    ok: Optional[bool] = None,
    errors: Optional[list[ExtractionIssue]] = None,
    skipped: Optional[list[ExtractionIssue]] = None,
    head_entries: Optional[list[Entry]] = None,
    compared: str = "merge-base(main, feature) -> feature",
    paths: Optional[list[str]] = None,
    flags: Optional[list[str]] = None,
) -> Receipt:
    changes = changes or []
    regressions = sum(1 for c in changes if c.severity == "regression" and c.accepted is None)
    warnings = sum(1 for c in changes if c.severity == "warning")
    surfaces = None
    if head_entries is not None:
        surfaces = {
            "base": Surface(rev="main", sha=BASE_SHA),
            "head": Surface(
                rev="feature",
                sha=HEAD_SHA,
                agents=[e for e in head_entries if e.kind == "agent"],
                tools=[e for e in head_entries if e.kind == "tool"],
                prompts=[e for e in head_entries if e.kind == "prompt"],
            ),
        }
    return Receipt(
        tool=ToolInfo(version="0.1.0"),
        base=RevInfo(rev="main", sha=BASE_SHA, surface_sha256="a" * 64),
        head=RevInfo(rev="feature", sha=HEAD_SHA, surface_sha256="b" * 64),
        compared=compared,
        paths=paths or [],
        summary=Summary(
            agents=sum(1 for e in head_entries or [] if e.kind == "agent" and e.exported),
            tools=sum(1 for e in head_entries or [] if e.kind == "tool" and e.exported),
            changes=len(changes),
            regressions=regressions,
            warnings=warnings,
        ),
        verdict=Verdict(ok=(regressions == 0) if ok is None else ok, fail_on="regression", flags=flags or []),
        changes=changes,
        errors=errors or [],
        skipped=skipped or [],
        surfaces=surfaces,
    )


def tool_entry(name: str, **attrs: Any) -> Entry:
    base = dict(kind="tool", name=name, path="src/tools.py", line=3, dialect="markers", exported=True, root=True)
    base.update(attrs)
    return Entry(**base)


def agent_entry(name: str, **attrs: Any) -> Entry:
    base = dict(kind="agent", name=name, path="src/agents.py", line=7, dialect="markers", exported=True, root=True)
    base.update(attrs)
    return Entry(**base)


def issue(path: str, kind: str = "error", reason: str = "syntax-error", message: str = "invalid syntax", touched: bool | None = None) -> ExtractionIssue:
    return ExtractionIssue(path=path, line=1 if kind == "error" else None, kind=kind, reason=reason, message=message, touched=touched)


def mixed_receipt() -> Receipt:
    """A receipt exercising every section: all severities, accepted, dynamic values, errors, surface."""
    changes = [
        change("tool.dangerous_gained", "regression", name="run_shell", before=False, after=True),
        change("tool.approval_lowered", "regression", name="delete_user", before="always", after="never"),
        change(
            "agent.trust_tier_lowered",
            "regression",
            kind="agent",
            name="triage",
            path="src/agents.py",
            line=40,
            before="human_required",
            after="autonomous",
            accepted=Accepted(reason="ticket OPS-12: supervised elsewhere", expires="2030-01-01"),
        ),
        change("agent.model_changed", "warning", kind="agent", name="triage", path="src/agents.py", line=40, before="gpt-4o", after=Dynamic(dynamic="os.environ['MODEL']")),
        change("tool.signature_changed", "warning", name="search", scope="files", before={"params": [{"name": "q"}]}, after={"params": [{"name": "q"}, {"name": "limit"}]}),
        change("tool.added", "info", name="list_files", scope="files", before=None, after={"dangerous": False, "approval": "never"}),
        change("agent.instructions_changed", "info", kind="agent", name="writer", before="ab" * 32, after="cd" * 32),
    ]
    entries = [
        tool_entry("read_doc", read_only=True, idempotent=True, open_world=False),
        tool_entry("send_mail", dangerous=True, approval="always", trust_tier="human_required"),
        tool_entry("fetch", scope="web", dangerous=Dynamic(dynamic="settings.DANGEROUS")),
        agent_entry("planner", model="gpt-5", replayable=True, reaches=["tool:read_doc"]),
        agent_entry("internal_helper", exported=False),
        agent_entry("triage"),  # changed: must not be listed as unchanged
    ]
    return receipt(
        changes,
        errors=[issue("src/broken.py")],
        skipped=[issue("assets/blob.bin", kind="skipped", reason="binary", message="binary file")],
        head_entries=entries,
        paths=["src"],
        flags=["extraction-errors"],
    )


def evil_receipt(name: str = EVIL) -> Receipt:
    """Every analysed-code-derived field of a receipt set to `name`."""
    changes = [
        change(
            "tool.dangerous_gained",
            "regression",
            name=name,
            scope=name,
            path=name,
            message=name,
            before=name,
            after={"k": name, "dyn": Dynamic(dynamic=name)},
            accepted=Accepted(reason=name, expires=name),
        ),
        change("tool.approval_lowered", "regression", name=name, path=f"src/{name}.py", message=name, before=[name], after=None),
        change("agent.model_changed", "warning", kind="agent", name=name, message=name, before=name, after=Dynamic(dynamic=name)),
        change("tool.added", "info", name=name, message=name, before=None, after=name),
    ]
    return receipt(
        changes,
        errors=[issue(name, message=name, reason=name)],
        skipped=[issue(name, kind="skipped", message=name, reason=name)],
        head_entries=[
            tool_entry(name, scope=name, path=name),
            agent_entry(name, model=name, path=name),
            tool_entry("plain", dangerous=Dynamic(dynamic=name)),
        ],
        compared=name,
        paths=[name],
        flags=[name],
    )


def gfm():
    """A GFM-like markdown-it parser (tables, strikethrough, and linkify when linkify-it-py is there)."""
    from markdown_it import MarkdownIt

    try:
        import linkify_it  # noqa: F401

        return MarkdownIt("gfm-like")
    except ImportError:
        return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


def walk(tokens):
    """All tokens, inline children included, in document order."""
    for tok in tokens:
        yield tok
        if tok.children:
            yield from walk(tok.children)


def with_traffic(r: Receipt, *, ids: int = 5, id_len: int = 32) -> Receipt:
    """`r` with trace evidence (as `--traces` adds it): every change seen in some traces."""
    from receipt.models import ChangeTraffic, TraceEvidence

    total = 40
    r.traces = TraceEvidence(
        traces=total, errored_traces=3, files=2, files_sha256="c" * 64, records=400,
        first_seen="2026-01-01T00:00:00Z", last_seen="2026-01-02T00:00:00Z",
    )
    r.traffic = [
        ChangeTraffic(
            fingerprint=c.fingerprint, id=c.id, subject=c.subject.key or "", traces=total - i, share=round((total - i) / total, 6),
            errored=i % 2, trace_ids=[f"{n:0{id_len}x}" for n in range(ids)], first_seen="2026-01-01T00:00:00Z",
            last_seen="2026-01-02T00:00:00Z", ambiguous=i == 1, escalated=i == 2,
        )
        for i, c in enumerate(r.changes)
    ]
    return r
