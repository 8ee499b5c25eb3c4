"""Corvid JSONL traces: one event per line.

Two spellings, both read:
- current: `{"kind": "schema_header", "version": 2, "writer": ..., "run_id": ...}` then events tagged
  by a snake_case `kind`: run_started (agent), tool_call / tool_result (tool, args, error),
  llm_call / llm_result (prompt, model), approval_request / approval_response (label),
  approval_decision (site, accepted), seed_read, clock_read, host_event, provenance_edge,
  run_completed (ok, error);
- older: `{"type": "SchemaHeader", "schema_version": N}` then `{"type": "ToolCall", ...}` (the same
  events in CamelCase).

A schema version outside SUPPORTED_VERSIONS stops the run (TraceSchemaError, naming the file): a
newer writer may have changed what fields mean. Unknown event kinds are counted and skipped. A run
is one trace, keyed by its `run_id` (header or event); without one, the file is the run. Times: an
event's `ts_ms` (unix milliseconds) or `timestamp` (ISO-8601 with a zone), when present.
"""

from __future__ import annotations

import re
from typing import Any

from receipt.traces.corpus import Reader
from receipt.traces.source import MalformedLine, TraceSchemaError
from receipt.traces.values import failed, iso_nanos, millis, text

SUPPORTED_VERSIONS = range(1, 3)  # schema versions 1 and 2

KINDS = frozenset(
    {
        "schema_header",
        "run_started",
        "tool_call",
        "tool_result",
        "llm_call",
        "llm_result",
        "approval_request",
        "approval_response",
        "approval_decision",
        "seed_read",
        "clock_read",
        "host_event",
        "provenance_edge",
        "run_completed",
    }
)
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
LEGACY_TYPES = {"".join(w.capitalize() for w in k.split("_")): k for k in KINDS}  # ToolCall -> tool_call


def event_kind(value: dict[str, Any]) -> Any:
    """The snake_case kind of an event in either spelling (None when it has neither tag)."""
    if "kind" in value:
        return value["kind"]
    t = value.get("type")
    if isinstance(t, str):
        return LEGACY_TYPES.get(t) or _CAMEL.sub("_", t).lower()
    return None


def recognises(value: Any) -> bool:
    return isinstance(value, dict) and (value.get("kind") in KINDS or value.get("type") in LEGACY_TYPES)


def _decision(value: dict[str, Any]) -> str | None:
    for key in ("accepted", "approved", "granted"):
        v = value.get(key)
        if isinstance(v, bool):
            return "granted" if v else "denied"
    return None


class Reader_(Reader):
    format = "corvid"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.run: str | None = None  # run id from the current schema header
        self.agents: dict[str, str] = {}  # trace key -> the agent its run started

    def feed(self, line: int, value: Any) -> None:
        if not isinstance(value, dict):
            raise MalformedLine("not a JSON object")
        corpus = self.corpus
        kind = event_kind(value)
        if kind == "schema_header":
            self.header(value)
            return
        corpus.records += 1
        if kind not in KINDS:
            corpus.unknown(kind)
            return
        key = text(value.get("run_id")) or self.run or self.file_key
        trace = corpus.trace(key)
        t = millis(value.get("ts_ms")) or iso_nanos(value.get("timestamp"))
        if t is not None:
            trace.extend(t, t)
        if kind == "run_started":
            agent = text(value.get("agent"))
            if agent is not None:
                self.agents[key] = agent
                corpus.use(trace, "agent", agent)
        elif kind == "tool_call":
            tool = text(value.get("tool")) or text(value.get("name"))
            if tool is not None:
                corpus.use(trace, "tool", tool)
        elif kind == "tool_result":
            tool = text(value.get("tool")) or text(value.get("name"))
            if tool is not None and (failed(value.get("error")) or value.get("ok") is False):
                corpus.fail(trace, "tool", tool)
        elif kind == "llm_call":
            prompt = text(value.get("prompt"))
            if prompt is not None:
                corpus.use(trace, "prompt", prompt)
        elif kind == "llm_result":
            prompt = text(value.get("prompt"))
            if prompt is not None and failed(value.get("error")):
                corpus.fail(trace, "prompt", prompt)
        elif kind == "approval_request":
            label = text(value.get("label"))
            if label is not None:
                corpus.approval(label, "requested")
        elif kind in ("approval_response", "approval_decision"):
            label = text(value.get("label")) or text(value.get("site"))
            outcome = _decision(value)
            if label is not None and outcome is not None:
                corpus.approval(label, outcome)
        elif kind == "run_completed":
            if value.get("ok") is False or failed(value.get("error")):
                trace.errored = True
                agent = self.agents.get(key)
                if agent is not None:
                    corpus.fail(trace, "agent", agent)

    def header(self, value: dict[str, Any]) -> None:
        version = value.get("version", value.get("schema_version"))
        if isinstance(version, bool) or not isinstance(version, int) or version not in SUPPORTED_VERSIONS:
            shown = version if isinstance(version, int) and not isinstance(version, bool) else "missing or not an integer"
            raise TraceSchemaError(
                f"{self.file.label}: Corvid trace schema version {shown} is not supported "
                f"(this version reads {SUPPORTED_VERSIONS.start}-{SUPPORTED_VERSIONS.stop - 1})"
            )
        self.run = text(value.get("run_id"))
