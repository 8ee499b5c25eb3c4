"""Reading trace corpora: each format, gzip streams, and hostile input (through the real reader)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from receipt.traces import TraceError, TraceSchemaError, read_corpus
from receipt.traces.summary import summarize
from tests.trace_corpora import agent_span, corvid_run, replay_capture, request, span, tool_span, write_lines

TID = "4bf92f3577b34da6a3ce929d0e0e4736"
TID2 = "5bf92f3577b34da6a3ce929d0e0e4737"


def rows_by_name(corpus) -> dict[tuple[str, str, str], object]:
    return {(r.kind, r.name, r.scope): r for r in summarize(corpus)}


def test_otlp_file_exporter_lines_genai_and_openinference(tmp_path: Path) -> None:
    write_lines(
        tmp_path / "otel.jsonl",
        [
            request([agent_span(TID, "Triage"), tool_span(TID, "refund_order", error=True)]),
            request(
                [
                    span(TID2, "lookup", {"openinference.span.kind": "TOOL", "tool.name": "lookup_order"}),
                    span(TID2, "chat gpt-5", {"gen_ai.operation.name": "chat"}),
                    span(TID2, "tools/call refund_order", {"mcp.method.name": "tools/call"}),
                ]
            ),
        ],
    )
    corpus = read_corpus([tmp_path])
    assert sorted(corpus.traces) == [TID, TID2]
    rows = rows_by_name(corpus)
    assert rows[("agent", "Triage", "shop-api")].calls == 1
    refund = rows[("tool", "refund_order", "shop-api")]
    assert (refund.calls, refund.errors, refund.traces, refund.errored_traces) == (2, 1, 2, 1)
    assert rows[("tool", "lookup_order", "shop-api")].calls == 1
    assert not any(r.name == "chat gpt-5" for r in rows.values())  # model calls are not surface entries
    assert corpus.records == 5 and corpus.errored_traces() == 1


def test_pydantic_ai_approval_deferral_is_an_approval_request_not_an_error(tmp_path: Path) -> None:
    deferred = span(
        TID,
        "running tool refund_order",
        {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "refund_order", "pydantic_ai.tool.deferral.name": "ApprovalRequired"},
        error=True,  # instrumentation versions < 5 set status ERROR on deferrals
    )
    write_lines(tmp_path / "t.jsonl", [request([deferred])])
    corpus = read_corpus([tmp_path])
    row = rows_by_name(corpus)[("tool", "refund_order", "shop-api")]
    assert (row.calls, row.errors, row.approvals_requested) == (1, 0, 1)
    assert corpus.errored_traces() == 0


def test_otlp_single_pretty_printed_document_and_older_library_spans(tmp_path: Path) -> None:
    doc = {"resourceSpans": [{"instrumentationLibrarySpans": [{"spans": [tool_span(TID, "refund_order")]}]}]}
    (tmp_path / "export.json").write_text(json.dumps(doc, indent=2))
    corpus = read_corpus([tmp_path / "export.json"])
    assert [f.format for f in corpus.files] == ["otlp"]
    assert rows_by_name(corpus)[("tool", "refund_order", "")].traces == 1


def test_corvid_current_and_legacy_spellings(tmp_path: Path) -> None:
    write_lines(tmp_path / "run1.jsonl", corvid_run("r-1", "support", ["refund_order"], failed_tools=["refund_order"]))
    legacy = [
        {"type": "SchemaHeader", "schema_version": 1, "run_id": "r-2"},
        {"type": "RunStarted", "agent": "support"},
        {"type": "ToolCall", "tool": "lookup_order", "args": {}},
        {"type": "ApprovalRequest", "label": "lookup_order"},
        {"type": "ApprovalDecision", "site": "lookup_order", "accepted": False},
        {"type": "RunCompleted", "ok": False, "error": "denied"},
    ]
    write_lines(tmp_path / "run2.jsonl", legacy)
    corpus = read_corpus([tmp_path])
    assert sorted(corpus.traces) == ["r-1", "r-2"]
    rows = rows_by_name(corpus)
    support = rows[("agent", "support", "")]
    assert (support.calls, support.traces, support.errored_traces) == (2, 2, 1)
    refund = rows[("tool", "refund_order", "")]
    assert (refund.calls, refund.errors) == (1, 1)
    lookup = rows[("tool", "lookup_order", "")]
    assert (lookup.approvals_requested, lookup.approvals_granted, lookup.approvals_denied) == (1, 0, 1)


def test_record_replay_capture_is_one_trace_per_file_named_by_content(tmp_path: Path) -> None:
    write_lines(tmp_path / "a.jsonl", replay_capture([("refund_order", None), ("refund_order", "timeout")]))
    write_lines(tmp_path / "b.jsonl", replay_capture([("lookup_order", None)]))
    corpus = read_corpus([tmp_path])
    assert len(corpus.traces) == 2 and all(t.startswith("sha256:") for t in corpus.traces)
    refund = rows_by_name(corpus)[("tool", "refund_order", "")]
    assert (refund.calls, refund.errors, refund.traces, refund.errored_traces) == (2, 1, 1, 1)


def test_gzip_is_read_as_a_stream_and_digested_as_stored(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "run.jsonl.gz", corvid_run("r-1", "support", ["refund_order"]), gz=True)
    corpus = read_corpus([tmp_path])
    import hashlib

    assert corpus.files[0].sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert corpus.files[0].format == "corvid"
    assert "r-1" in corpus.traces


@pytest.mark.parametrize("version", [0, 3, 99, "2", True, None])
def test_schema_version_outside_range_is_a_typed_error_naming_the_file(tmp_path: Path, version: object) -> None:
    rows = corvid_run("r-1", "support", [])
    rows[0] = {"kind": "schema_header", "version": version}
    write_lines(tmp_path / "future.jsonl", rows)
    with pytest.raises(TraceSchemaError) as e:
        read_corpus([tmp_path])
    msg = str(e.value)
    assert "\n" not in msg and "future.jsonl" in msg and "not supported" in msg
    assert e.value.exit_code == 2


def test_unknown_kinds_are_counted_and_skipped(tmp_path: Path) -> None:
    rows = corvid_run("r-1", "support", ["refund_order"])
    rows.insert(2, {"kind": "quantum_event", "x": 1})
    rows.insert(2, {"kind": "quantum_event", "x": 2})
    write_lines(tmp_path / "r.jsonl", rows)
    write_lines(tmp_path / "c.jsonl", [{"i": 0, "kind": "telepathy", "payload": {}}])
    corpus = read_corpus([tmp_path])
    assert corpus.unknown_kinds == {"quantum_event": 2, "telepathy": 1} and corpus.unknown_events == 3
    assert rows_by_name(corpus)[("tool", "refund_order", "")].calls == 1


def test_hostile_lines_are_reported_with_file_and_line_and_do_not_sink_other_traces(tmp_path: Path) -> None:
    good = [json.dumps(r).encode() for r in corvid_run("r-1", "support", ["refund_order"])]
    hostile = [
        b"{not json",
        b'{"kind": "tool_call", "tool": NaN}',
        b'{"kind": "tool_call", "tool": "caf\xe9"}',  # invalid UTF-8
        b"[" * 100_000 + b"]" * 100_000,  # deep JSON
        b'{"kind": "tool_call", "tool": ' + b'"x' * 10 + b'"}',
        b'{"kind": "tool_call", "tool": ["wrong", "type"], "run_id": 7, "ts_ms": "soon"}',
        b'{"kind": 12}',
        b"42",
    ]
    lines = good[:3] + hostile + good[3:]
    (tmp_path / "mixed.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    corpus = read_corpus([tmp_path])
    problems = {(p.file, p.line): p.reason for p in corpus.sorted_problems()}
    label = corpus.files[0].label
    assert label.endswith("/mixed.jsonl") and not label.startswith("/")
    assert problems[(label, 4)].startswith("not JSON")
    assert problems[(label, 5)] == "NaN or Infinity is not JSON"
    assert problems[(label, 6)] == "not valid UTF-8"
    assert problems[(label, 7)] == "JSON nested too deeply"
    assert problems[(label, 8)].startswith("not JSON")
    assert problems[(label, 11)] == "not a JSON object"
    assert corpus.malformed == 6
    assert corpus.unknown_kinds == {"<int>": 1}
    # The run around the hostile lines is intact.
    assert list(corpus.traces) == ["r-1"]
    assert rows_by_name(corpus)[("tool", "refund_order", "")].calls == 1


def test_a_huge_line_is_skipped_without_holding_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from receipt.traces import source

    monkeypatch.setattr(source, "MAX_LINE_BYTES", 1000)
    good = [json.dumps(r) for r in corvid_run("r-1", "support", ["refund_order"])]
    huge = json.dumps({"kind": "tool_call", "tool": "x" * 50_000})
    (tmp_path / "big.jsonl").write_text("\n".join(good[:2] + [huge] + good[2:]) + "\n")
    corpus = read_corpus([tmp_path])
    assert [p.reason for p in corpus.sorted_problems()] == ["line too long (skipped)"]
    assert corpus.sorted_problems()[0].line == 3
    assert rows_by_name(corpus)[("tool", "refund_order", "")].calls == 1


def test_a_truncated_gzip_keeps_what_was_read_and_says_so(tmp_path: Path) -> None:
    data = gzip.compress("".join(json.dumps(r) + "\n" for r in corvid_run("r-1", "support", ["refund_order"])).encode(), mtime=0)
    (tmp_path / "cut.jsonl.gz").write_bytes(data[: len(data) - 12])
    write_lines(tmp_path / "ok.jsonl", corvid_run("r-2", "support", []))
    corpus = read_corpus([tmp_path])
    assert "r-2" in corpus.traces
    assert any(p.file.endswith("cut.jsonl.gz") and "unreadable" in p.reason for p in corpus.sorted_problems())


def test_no_trace_files_or_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(TraceError) as e:
        read_corpus([tmp_path])
    assert e.value.exit_code == 2 and "no trace files" in str(e.value)
    with pytest.raises(TraceError) as e:
        read_corpus([tmp_path / "missing"])
    assert "no such file or folder" in str(e.value)


def test_same_files_in_any_order_give_the_same_corpus(tmp_path: Path) -> None:
    write_lines(tmp_path / "x" / "a.jsonl", corvid_run("r-1", "support", ["refund_order"]))
    write_lines(tmp_path / "y" / "b.jsonl", [request([tool_span(TID, "refund_order")])])
    write_lines(tmp_path / "y" / "c.jsonl", [{"i": 0, "kind": "tool", "payload": {"name": "z", "err": None}}])
    one = read_corpus([tmp_path / "x", tmp_path / "y"])
    two = read_corpus([tmp_path / "y", tmp_path / "x"])
    assert summarize(one) == summarize(two)
    assert sorted(one.traces) == sorted(two.traces)


def test_a_broken_first_line_costs_that_line_only(tmp_path: Path) -> None:
    good = [json.dumps(r) for r in corvid_run("r-1", "support", ["refund_order"])]
    (tmp_path / "t.jsonl").write_text('{"kind": "schema_header", "version": \n' + "\n".join(good) + "\n")
    corpus = read_corpus([tmp_path])
    assert [(p.line, p.reason.split(" (")[0]) for p in corpus.sorted_problems()] == [(1, "not JSON")]
    assert rows_by_name(corpus)[("tool", "refund_order", "")].calls == 1
    assert len(corpus.files) == 1


def test_a_document_over_the_bound_is_reported_not_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from receipt.traces import source

    monkeypatch.setattr(source.read_document, "__defaults__", (2000,))
    doc = request([tool_span(TID, f"tool_{i}") for i in range(50)])
    (tmp_path / "big.json").write_text(json.dumps(doc, indent=2))
    corpus = read_corpus([tmp_path])
    (problem,) = corpus.sorted_problems()
    assert problem.line == 1 and "larger than" in problem.reason and "one OTLP export request per line" in problem.reason
    assert corpus.traces == {}


def test_unknown_kinds_stay_bounded_and_order_free(tmp_path: Path) -> None:
    from receipt.traces.corpus import MAX_UNKNOWN_KINDS

    kinds = [f"kind_{i:04d}" for i in range(500)]
    write_lines(tmp_path / "a" / "r.jsonl", corvid_run("r-1", "support", []) + [{"kind": k} for k in kinds] + [{"kind": "kind_0001"}])
    write_lines(tmp_path / "b" / "r.jsonl", corvid_run("r-2", "support", []) + [{"kind": k} for k in reversed(kinds)])
    one = read_corpus([tmp_path / "a", tmp_path / "b"])
    two = read_corpus([tmp_path / "b", tmp_path / "a"])
    assert one.unknown_events == two.unknown_events == 1001
    assert one.sorted_unknown_kinds() == two.sorted_unknown_kinds()
    assert list(one.sorted_unknown_kinds()) == kinds[:MAX_UNKNOWN_KINDS]
    assert one.sorted_unknown_kinds()["kind_0001"] == 3
    assert len(one.unknown_kinds) <= 2 * MAX_UNKNOWN_KINDS
