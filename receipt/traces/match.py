"""Changes x surfaces x corpus -> the evidence in the receipt. Pure: no I/O, no clock.

Matching rule ("client-visible-name/v1"): a recorded use of a tool, agent or prompt matches the
exported entries of that kind, at base or head, whose client-visible name (mount prefixes and
namespaces applied, as clients call it) is exactly the recorded name.
- One such entry: it is that entry.
- Several (two servers exposing the same name): when the recording carries a scope hint (the OTel
  resource's `service.name`) equal to exactly one candidate's scope (its MCP server name), it is
  that one; otherwise the use counts for every candidate and their evidence says `ambiguous`
  (the counts are an upper bound). A reviewer is never told "unused" about a tool that may be used.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from typing import Iterable, Sequence

from receipt.canonical import sha256_hex
from receipt.models import Change, ChangeTraffic, Surface, TraceEvidence, TraceProblem
from receipt.traces.corpus import ERRORED, Corpus
from receipt.traces.values import iso

MATCH_RULE = "client-visible-name/v1"
SAMPLE_TRACE_IDS = 5
KINDS = ("tool", "agent", "prompt")


def files_digest(digests: Iterable[str]) -> str:
    """sha256 over the sorted file digests, each as lowercase hex followed by "\\n".

    Reproducible by hand: `sha256sum FILES | cut -c1-64 | sort | sha256sum`."""
    return sha256_hex("".join(d + "\n" for d in sorted(digests)))


def corpus_evidence(corpus: Corpus, escalate_above: float | None = None) -> TraceEvidence:
    t0, t1 = corpus.time_span()
    return TraceEvidence(
        traces=len(corpus.traces),
        errored_traces=corpus.errored_traces(),
        files=len(corpus.files),
        files_sha256=files_digest(f.sha256 for f in corpus.files),
        records=corpus.records,
        first_seen=iso(t0),
        last_seen=iso(t1),
        malformed=corpus.malformed,
        problems=[TraceProblem(file=p.file, line=p.line, reason=p.reason) for p in corpus.sorted_problems()],
        problem_count=corpus.problem_count,
        unknown_kinds=corpus.sorted_unknown_kinds(),
        unknown_events=corpus.unknown_events,
        match_rule=MATCH_RULE,
        escalate_above=escalate_above,
    )


def exceeds(traces: int, total: int, threshold: float | None) -> bool:
    """The escalation rule: strictly more than `threshold` of all traces."""
    return threshold is not None and total > 0 and traces > threshold * total


def traffic_for(corpus: Corpus, changes: Sequence[Change], surfaces: Sequence[Surface]) -> list[ChangeTraffic]:
    """One entry per change whose subject is an agent, tool or prompt, sorted by subject, id, fingerprint."""
    candidates: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)  # (kind, name) -> {key: scope}
    for surface in surfaces:
        for e in surface.entries():
            if e.exported:
                candidates[(e.kind, e.name)][e.key] = e.scope
    subjects = [c for c in changes if c.subject.kind in KINDS and c.subject.key]
    for c in subjects:  # a subject is always its own candidate, even if no surface lists it
        candidates[(c.subject.kind, c.subject.name)].setdefault(c.subject.key or "", c.subject.scope or "")

    wanted = {(c.subject.kind, c.subject.name) for c in subjects}
    recorded: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)  # (kind, name) -> [(name id, hint)]
    for i, (kind, name, hint) in enumerate(corpus.names):
        if (kind, name) in wanted:
            recorded[(kind, name)].append((i, hint))
    needed = {i for ids in recorded.values() for i, _ in ids}
    index: dict[int, list[tuple[str, int]]] = defaultdict(list)  # name id -> [(trace id, flags)]
    if needed:
        for trace_id, trace in corpus.traces.items():
            for i, flags in trace.uses.items():
                if i in needed:
                    index[i].append((trace_id, flags))

    total = len(corpus.traces)
    cache: dict[str, tuple] = {}
    out: list[ChangeTraffic] = []
    for change in subjects:
        key = change.subject.key or ""
        if key not in cache:
            cache[key] = _measure(corpus, key, candidates[(change.subject.kind, change.subject.name)],
                                  recorded.get((change.subject.kind, change.subject.name), []), index)
        traces, errored, sample, first, last, ambiguous = cache[key]
        out.append(
            ChangeTraffic(
                fingerprint=change.fingerprint,
                id=change.id,
                subject=key,
                traces=traces,
                share=round(traces / total, 6) if total else 0.0,
                errored=errored,
                trace_ids=sample,
                first_seen=first,
                last_seen=last,
                ambiguous=ambiguous,
            )
        )
    return sorted(out, key=lambda t: (t.subject, t.id, t.fingerprint))


def _measure(
    corpus: Corpus,
    key: str,
    candidates: dict[str, str],
    recorded: list[tuple[int, str]],
    index: dict[int, list[tuple[str, int]]],
) -> tuple:
    matched: dict[str, bool] = {}  # trace id -> this subject failed in it
    ambiguous = False
    for i, hint in recorded:
        targets = set(candidates)
        if hint and len(targets) > 1:
            by_hint = [k for k, scope in candidates.items() if scope == hint]
            if len(by_hint) == 1:
                targets = set(by_hint)
        if key not in targets:
            continue
        ambiguous = ambiguous or len(targets) > 1
        for trace_id, flags in index.get(i, ()):
            matched[trace_id] = matched.get(trace_id, False) or bool(flags & ERRORED)
    t0s = [t for t in (corpus.traces[tid].t0 for tid in matched) if t is not None]
    t1s = [t for t in (corpus.traces[tid].t1 for tid in matched) if t is not None]
    return (
        len(matched),
        sum(matched.values()),
        heapq.nsmallest(SAMPLE_TRACE_IDS, matched),
        iso(min(t0s)) if t0s else None,
        iso(max(t1s)) if t1s else None,
        ambiguous,
    )


def evidence_for(
    corpus: Corpus, changes: Sequence[Change], surfaces: Sequence[Surface], escalate_above: float | None = None
) -> tuple[TraceEvidence, list[ChangeTraffic], set[str]]:
    """The receipt's evidence, the per-change traffic, and the fingerprints whose traffic share is
    above `escalate_above` (the policy raises those one severity level)."""
    evidence = corpus_evidence(corpus, escalate_above)
    traffic = traffic_for(corpus, changes, surfaces)
    escalate = {t.fingerprint for t in traffic if exceeds(t.traces, evidence.traces, escalate_above)}
    if escalate:
        traffic = [t.model_copy(update={"escalated": t.fingerprint in escalate}) for t in traffic]
    return evidence, traffic, escalate
