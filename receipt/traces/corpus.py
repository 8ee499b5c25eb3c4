"""The corpus: every trace file read once, aggregated per trace id without keeping spans or events.

Memory is bounded by the number of traces and the distinct names each one uses, never by the
number of spans or bytes: a trace is a few integers and a small {name id: flags} map. Everything
aggregated is order-free (sets, sums, min/max, the K smallest problems), so the same files give
the same corpus whatever order they are named or found in.
"""

from __future__ import annotations

import hashlib
import heapq
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from receipt.traces.source import (
    STREAM_ERRORS,
    DocumentTooLarge,
    MalformedLine,
    OpenedTrace,
    TraceFile,
    bounded_lines,
    find_trace_files,
    parse_json,
    read_document,
)

USED = 1
ERRORED = 2
MAX_NAME = 1024  # longer recorded names are clipped (and so match nothing): no entry is named like that
MAX_KIND = 64
MAX_PROBLEMS = 50  # problems kept for the report (the smallest by file, line); all are counted
MAX_UNKNOWN_KINDS = 50  # unknown kinds counted by name (the smallest names); all are counted in total
MAX_TRACE_ID = 128  # a longer recorded id is replaced by its digest (it goes into the signed receipt)


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int  # 0: the file as a whole
    reason: str


class Trace:
    """One trace (or run): when it started and ended, whether it failed, which names it used."""

    __slots__ = ("t0", "t1", "errored", "uses")

    def __init__(self) -> None:
        self.t0: int | None = None  # unix nanoseconds
        self.t1: int | None = None
        self.errored = False
        self.uses: dict[int, int] = {}  # name id -> USED | ERRORED

    def merge(self, other: Trace) -> None:
        self.extend(other.t0, other.t1)
        self.errored = self.errored or other.errored
        for k, v in other.uses.items():
            self.uses[k] = self.uses.get(k, 0) | v

    def extend(self, t0: int | None, t1: int | None) -> None:
        if t0 is not None and (self.t0 is None or t0 < self.t0):
            self.t0 = t0
        if t1 is None:
            t1 = t0
        if t1 is not None and (self.t1 is None or t1 > self.t1):
            self.t1 = t1


@dataclass
class FileInfo:
    label: str
    sha256: str
    size: int
    format: str  # otlp | corvid | replay | empty | unreadable


@dataclass
class Corpus:
    """What the trace files say, aggregated. Built by `read_corpus`; read by match and summary."""

    traces: dict[str, Trace] = field(default_factory=dict)
    names: list[tuple[str, str, str]] = field(default_factory=list)  # id -> (kind, name, scope hint)
    name_ids: dict[tuple[str, str, str], int] = field(default_factory=dict)
    calls: dict[int, list[int]] = field(default_factory=dict)  # name id -> [calls, errored calls]
    approvals: dict[str, list[int]] = field(default_factory=dict)  # label -> [requested, granted, denied]
    files: list[FileInfo] = field(default_factory=list)
    records: int = 0  # spans and events read
    malformed: int = 0
    unknown_kinds: dict[str, int] = field(default_factory=dict)  # exact counts, names < unknown_cut
    unknown_events: int = 0
    unknown_cut: str | None = None  # names from here up are only in the total (memory bound)
    problems: list[Problem] = field(default_factory=list)
    problem_count: int = 0

    # -- what readers call ---------------------------------------------------------------------

    def trace(self, trace_id: str) -> Trace:
        if len(trace_id) > MAX_TRACE_ID:
            trace_id = "sha256:" + hashlib.sha256(trace_id.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        t = self.traces.get(trace_id)
        if t is None:
            t = self.traces[trace_id] = Trace()
        return t

    def name_id(self, kind: str, name: str, scope: str = "") -> int:
        if len(name) > MAX_NAME:
            name = name[: MAX_NAME - 1] + "…"
        key = (kind, name, scope[:MAX_NAME])
        i = self.name_ids.get(key)
        if i is None:
            i = self.name_ids[key] = len(self.names)
            self.names.append(key)
        return i

    def use(self, trace: Trace, kind: str, name: str, scope: str = "", error: bool = False) -> None:
        """`trace` used the tool/agent/prompt `name` once (and that use failed when `error`)."""
        i = self.name_id(kind, name, scope)
        trace.uses[i] = trace.uses.get(i, 0) | (USED | (ERRORED if error else 0))
        c = self.calls.get(i)
        if c is None:
            c = self.calls[i] = [0, 0]
        c[0] += 1
        if error:
            c[1] += 1
            trace.errored = True

    def fail(self, trace: Trace, kind: str, name: str, scope: str = "") -> None:
        """A use already counted failed (an error reported by a separate result event)."""
        i = self.name_id(kind, name, scope)
        trace.uses[i] = trace.uses.get(i, 0) | USED | ERRORED
        trace.errored = True
        c = self.calls.get(i)
        if c is None:
            c = self.calls[i] = [0, 0]
        c[1] += 1

    def approval(self, label: str, outcome: str) -> None:
        """outcome: requested | granted | denied."""
        label = label[:MAX_NAME]
        a = self.approvals.get(label)
        if a is None:
            a = self.approvals[label] = [0, 0, 0]
        a[("requested", "granted", "denied").index(outcome)] += 1

    def unknown(self, kind: Any) -> None:
        """An event of a kind this version does not read. Hostile input can make every line a new
        kind, so exact counts are kept for the smallest names only; which names those are does not
        depend on reading order (a name once evicted, and every name above it, stays out)."""
        self.unknown_events += 1
        k = kind[:MAX_KIND] if isinstance(kind, str) else f"<{type(kind).__name__}>"
        if self.unknown_cut is not None and k >= self.unknown_cut:
            return
        self.unknown_kinds[k] = self.unknown_kinds.get(k, 0) + 1
        if len(self.unknown_kinds) > 2 * MAX_UNKNOWN_KINDS:
            names = sorted(self.unknown_kinds)
            self.unknown_cut = names[MAX_UNKNOWN_KINDS]
            self.unknown_kinds = {n: self.unknown_kinds[n] for n in names[:MAX_UNKNOWN_KINDS]}

    def sorted_unknown_kinds(self) -> dict[str, int]:
        return dict(sorted(self.unknown_kinds.items())[:MAX_UNKNOWN_KINDS])

    def problem(self, file: str, line: int, reason: str) -> None:
        self.problem_count += 1
        self.problems.append(Problem(file, line, reason))
        if len(self.problems) > 2 * MAX_PROBLEMS:  # keep the K smallest: independent of reading order
            self.problems = heapq.nsmallest(MAX_PROBLEMS, self.problems)

    def rename(self, provisional: str, final: str) -> None:
        """A trace read under a per-file key gets its content-derived id (formats without ids)."""
        t = self.traces.pop(provisional, None)
        if t is None:
            return
        existing = self.traces.get(final)
        if existing is None:
            self.traces[final] = t
        else:
            existing.merge(t)

    # -- views ------------------------------------------------------------------------------------

    def sorted_problems(self) -> list[Problem]:
        return heapq.nsmallest(MAX_PROBLEMS, self.problems)

    def errored_traces(self) -> int:
        return sum(1 for t in self.traces.values() if t.errored)

    def time_span(self) -> tuple[int | None, int | None]:
        t0s = [t.t0 for t in self.traces.values() if t.t0 is not None]
        t1s = [t.t1 for t in self.traces.values() if t.t1 is not None]
        return (min(t0s) if t0s else None, max(t1s) if t1s else None)


class Reader:
    """One format's reader: fed the JSON value of each line of one file, then ended."""

    format = ""

    def __init__(self, corpus: Corpus, file: TraceFile):
        self.corpus = corpus
        self.file = file
        # Formats without trace ids use one trace per file, renamed after its content digest.
        self.file_key = f"\x00file:{file.label}:{id(self)}"

    def feed(self, line: int, value: Any) -> None:
        raise NotImplementedError

    def end(self, digest: str) -> None:
        self.corpus.rename(self.file_key, f"sha256:{digest[:16]}")


def _detect(value: Any) -> Callable[[Corpus, TraceFile], Reader] | None:
    from receipt.traces import corvid, otlp, replay

    for module in (otlp, corvid, replay):
        if module.recognises(value):
            return module.Reader_
    return None


def read_file(corpus: Corpus, tf: TraceFile) -> None:
    """Read one file into the corpus; its problems are recorded, never raised (except schema errors).

    A file whose first line is not JSON on its own may be one pretty-printed document; if it is not
    that either, it is read again as lines, so a broken first line costs that line only.
    """
    if not _read_file(corpus, tf, as_document=True):
        _read_file(corpus, tf, as_document=False)


def _opens_document(line: bytes) -> bool:
    """The first line of a pretty-printed document (`{`, `{"resourceSpans": [`), not a broken record."""
    text = line.strip()
    return text[:1] in (b"{", b"[") and text[-1:] in (b"{", b"[")


def _read_file(corpus: Corpus, tf: TraceFile, as_document: bool) -> bool:
    """False when the file turned out not to be one JSON document (nothing was recorded then)."""
    with OpenedTrace(tf) as opened:
        reader: Reader | None = None
        fmt = "empty"
        try:
            for number, line in bounded_lines(opened.stream):
                if line is None:
                    corpus.malformed += 1
                    corpus.problem(tf.label, number, "line too long (skipped)")
                    continue
                if not line.strip():
                    continue
                try:
                    value = parse_json(line)
                except MalformedLine as e:
                    if as_document and reader is None and _opens_document(line):
                        try:
                            value = read_document(opened.stream, line)
                        except DocumentTooLarge as e2:
                            corpus.malformed += 1
                            corpus.problem(tf.label, number, e2.reason)
                            fmt = "unreadable"
                            break
                        except MalformedLine:
                            return False
                    else:
                        corpus.malformed += 1
                        corpus.problem(tf.label, number, e.reason)
                        continue
                if reader is None:
                    make = _detect(value)
                    if make is None:
                        corpus.malformed += 1
                        corpus.problem(tf.label, number, "not a recognised trace format (OTLP/JSON, Corvid JSONL, record/replay)")
                        fmt = "unrecognised"
                        break
                    reader = make(corpus, tf)
                    fmt = reader.format
                try:
                    reader.feed(number, value)
                except MalformedLine as e:
                    corpus.malformed += 1
                    corpus.problem(tf.label, number, e.reason)
        except STREAM_ERRORS as e:
            corpus.problem(tf.label, 0, f"unreadable ({type(e).__name__}); the traces read before are kept")
            fmt = fmt if reader is not None else "unreadable"
        try:
            digest, size = opened.digest()
        except OSError as e:
            digest, size = "", 0
            corpus.problem(tf.label, 0, f"unreadable ({e.strerror})")
        if reader is not None:
            reader.end(digest or tf.label)
        corpus.files.append(FileInfo(tf.label, digest, size, fmt))
        return True


def read_corpus(paths: Sequence[str | os.PathLike[str]], progress: Callable[[str], None] | None = None) -> Corpus:
    """Every trace file under `paths`, aggregated. Raises TraceError/TraceSchemaError (exit 2)."""
    corpus = Corpus()
    files = find_trace_files(paths)
    for i, tf in enumerate(files):
        if progress is not None:
            progress(f"traces: {i + 1}/{len(files)} files, {len(corpus.traces):,} traces")
        read_file(corpus, tf)
    return corpus
