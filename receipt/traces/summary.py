"""`receipt traces summarize`: per tool, agent and prompt, what the recorded traffic did. Pure.

Approvals are counted per label (Corvid `approval_request`/`approval_response` label,
`approval_decision` site); a label equal to a tool's name is shown on that tool's row.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from receipt.render.escape import clip, visible
from receipt.traces.corpus import ERRORED, Corpus
from receipt.traces.match import corpus_evidence

_NAME = 80


@dataclass
class Row:
    kind: str  # tool | agent | prompt | approval
    name: str
    scope: str  # scope hint (OTel service.name), "" when none
    calls: int = 0
    errors: int = 0
    traces: int = 0
    errored_traces: int = 0
    approvals_requested: int = 0
    approvals_granted: int = 0
    approvals_denied: int = 0


def summarize(corpus: Corpus) -> list[Row]:
    traces = [0] * len(corpus.names)
    errored = [0] * len(corpus.names)
    for t in corpus.traces.values():
        for i, flags in t.uses.items():
            traces[i] += 1
            if flags & ERRORED:
                errored[i] += 1
    rows: dict[tuple[str, str, str], Row] = {}
    for i, (kind, name, scope) in enumerate(corpus.names):
        calls, errors = corpus.calls.get(i, (0, 0))
        rows[(kind, name, scope)] = Row(kind, name, scope, calls, errors, traces[i], errored[i])
    tools: dict[str, Row] = {}
    for (kind, name, _), row in sorted(rows.items()):  # a label goes to the unscoped row first
        if kind == "tool":
            tools.setdefault(name, row)
    for label, (requested, granted, denied) in corpus.approvals.items():
        row = tools.get(label) or rows.setdefault(("approval", label, ""), Row("approval", label, ""))
        row.approvals_requested += requested
        row.approvals_granted += granted
        row.approvals_denied += denied
    order = {"agent": 0, "tool": 1, "prompt": 2, "approval": 3}
    return sorted(rows.values(), key=lambda r: (order[r.kind], r.name, r.scope))


def render_json(corpus: Corpus) -> str:
    data: dict[str, Any] = {
        "schema": "behavior-receipt-traces/v1",
        "evidence": corpus_evidence(corpus).model_dump(mode="json"),
        "files": sorted(({"file": f.label, "sha256": f.sha256, "bytes": f.size, "format": f.format} for f in corpus.files), key=lambda f: (f["file"], f["sha256"])),
        "rows": [asdict(r) for r in summarize(corpus)],
    }
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _cell(text: str) -> str:
    return clip(visible(text), _NAME)


def render_text(corpus: Corpus) -> str:
    """A plain-text table for a terminal; names from traces have their control characters made visible."""
    ev = corpus_evidence(corpus)
    lines = [
        f"{ev.traces:,} traces ({ev.errored_traces:,} with errors) in {ev.files:,} files, {ev.records:,} spans/events"
        + (f", {ev.first_seen} .. {ev.last_seen}" if ev.first_seen else ""),
        f"files sha256: {ev.files_sha256}",
    ]
    if ev.malformed or ev.problem_count:
        lines.append(f"{ev.malformed:,} malformed lines skipped; {ev.problem_count:,} problems (first {len(ev.problems)} below)")
    if ev.unknown_events:
        kinds = ", ".join(f"{_cell(k)} ({n:,})" for k, n in ev.unknown_kinds.items())
        lines.append(f"{ev.unknown_events:,} events of unknown kinds skipped: {kinds}")
    header = ("kind", "name", "scope", "calls", "errors", "traces", "approvals req/ok/denied")
    table = [header] + [
        (
            r.kind,
            _cell(r.name),
            _cell(r.scope) or "-",
            f"{r.calls:,}",
            f"{r.errors:,}",
            f"{r.traces:,}",
            f"{r.approvals_requested:,}/{r.approvals_granted:,}/{r.approvals_denied:,}",
        )
        for r in summarize(corpus)
    ]
    widths = [max(len(row[c]) for row in table) for c in range(len(header))]
    lines.append("")
    for row in table:
        cells = [row[c].rjust(widths[c]) if 3 <= c else row[c].ljust(widths[c]) for c in range(len(header))]
        lines.append("  ".join(cells).rstrip())
    if ev.problems:
        lines.append("")
        for p in ev.problems:
            where = f"{_cell(p.file)}:{p.line}" if p.line else _cell(p.file)
            lines.append(f"problem: {where}: {p.reason}")
    return "\n".join(lines) + "\n"
