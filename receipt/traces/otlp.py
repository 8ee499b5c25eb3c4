"""OTLP/JSON traces: what the OpenTelemetry collector's file exporter writes (one
ExportTraceServiceRequest per line), or one such request as a whole document.

Shape: `resourceSpans[].resource.attributes`, `resourceSpans[].scopeSpans[].spans[]` (the older
`instrumentationLibrarySpans` too); attributes are lists of `{key, value: AnyValue}`.

What a span is, from the attributes (GenAI semantic conventions, checked against semconv v1.41
and the semantic-conventions-genai repository; OpenInference spec):
- a tool use: `gen_ai.operation.name = execute_tool` (name: `gen_ai.tool.name`), OpenInference
  `openinference.span.kind = TOOL` (name: `tool.name`), MCP `mcp.method.name = tools/call`;
- an agent run: `gen_ai.operation.name = invoke_agent` (name: `gen_ai.agent.name`), OpenInference
  `AGENT` (name: `agent.name`);
- a prompt use: MCP `mcp.method.name = prompts/get` (name: `gen_ai.prompt.name`).
When the name attribute is missing, the span name's conventional form `{operation} {name}` is used.
An error is span status code 2 (`STATUS_CODE_ERROR`) or an `error.type` attribute. The resource's
`service.name` is kept as a scope hint (it can tell apart two servers exposing the same tool name).

Approvals: the GenAI conventions define none. PydanticAI's instrumentation marks a tool span whose
call was deferred for approval with `pydantic_ai.tool.deferral.name = ApprovalRequired` (read in its
source, capabilities/instrumentation.py); that is counted as an approval request for the tool, and a
deferral (approval or `CallDeferred`) is control flow, not an error, even where older
instrumentation versions set status ERROR on it.
"""

from __future__ import annotations

from typing import Any

from receipt.traces.corpus import Reader
from receipt.traces.source import MalformedLine
from receipt.traces.values import nanos, text

OPERATION = "gen_ai.operation.name"
OI_KIND = "openinference.span.kind"
MCP_METHOD = "mcp.method.name"
ERROR_TYPE = "error.type"
SERVICE_NAME = "service.name"
DEFERRAL = "pydantic_ai.tool.deferral.name"

# (kind, name attributes in order of preference, span-name prefixes)
TOOL = ("tool", ("gen_ai.tool.name", "tool.name"), ("execute_tool ", "tools/call "))
AGENT = ("agent", ("gen_ai.agent.name", "agent.name"), ("invoke_agent ",))
PROMPT = ("prompt", ("gen_ai.prompt.name",), ("prompts/get ",))

WANTED = frozenset({OPERATION, OI_KIND, MCP_METHOD, ERROR_TYPE, DEFERRAL, *TOOL[1], *AGENT[1], *PROMPT[1]})
_ERROR_CODES = (2, "2", "STATUS_CODE_ERROR", "ERROR")
_ZERO_TRACE = "0" * 32


def recognises(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("resourceSpans"), list)


def attributes(items: Any, wanted: frozenset[str]) -> dict[str, Any]:
    """The wanted keys of an OTLP attribute list, as plain values (strings, numbers, booleans)."""
    out: dict[str, Any] = {}
    if not isinstance(items, list):
        return out
    for kv in items:
        if not isinstance(kv, dict):
            continue
        key = kv.get("key")
        if key not in wanted or not isinstance(key, str):
            continue
        v = kv.get("value")
        if isinstance(v, dict):
            for field in ("stringValue", "intValue", "boolValue", "doubleValue"):
                if field in v:
                    out[key] = v[field]
                    break
    return out


def classify(attrs: dict[str, Any], span_name: str) -> tuple[str, str | None] | None:
    """(kind, name) of the surface entry a span uses, or None for other spans (model calls, ...)."""
    op = attrs.get(OPERATION)
    oi = attrs.get(OI_KIND)
    oi = oi.upper() if isinstance(oi, str) else None
    method = attrs.get(MCP_METHOD)
    if op == "execute_tool" or oi == "TOOL" or method == "tools/call":
        spec = TOOL
    elif op == "invoke_agent" or oi == "AGENT":
        spec = AGENT
    elif method == "prompts/get":
        spec = PROMPT
    else:
        return None
    kind, keys, prefixes = spec
    for key in keys:
        name = text(attrs.get(key))
        if name is not None:
            return kind, name
    for prefix in prefixes:
        if span_name.startswith(prefix) and len(span_name) > len(prefix):
            return kind, span_name[len(prefix) :]
    return kind, None


class Reader_(Reader):
    format = "otlp"

    def feed(self, line: int, value: Any) -> None:
        if not recognises(value):
            raise MalformedLine("not an OTLP export request (no resourceSpans list)")
        for rs in value["resourceSpans"]:
            if not isinstance(rs, dict):
                continue
            resource = rs.get("resource")
            service = ""
            if isinstance(resource, dict):
                service = text(attributes(resource.get("attributes"), frozenset({SERVICE_NAME})).get(SERVICE_NAME)) or ""
            scope_spans = rs.get("scopeSpans", rs.get("instrumentationLibrarySpans"))
            if not isinstance(scope_spans, list):
                continue
            for ss in scope_spans:
                spans = ss.get("spans") if isinstance(ss, dict) else None
                if not isinstance(spans, list):
                    continue
                for span in spans:
                    if isinstance(span, dict):
                        self.span(line, span, service)

    def span(self, line: int, span: dict[str, Any], service: str) -> None:
        corpus = self.corpus
        trace_id = span.get("traceId")
        if not isinstance(trace_id, str) or not trace_id or len(trace_id) > 64:
            corpus.problem(self.file.label, line, "a span without a usable traceId (skipped)")
            return
        trace_id = trace_id.lower()
        if trace_id == _ZERO_TRACE:
            corpus.problem(self.file.label, line, "a span with the invalid all-zero traceId (skipped)")
            return
        corpus.records += 1
        trace = corpus.trace(trace_id)
        trace.extend(nanos(span.get("startTimeUnixNano")), nanos(span.get("endTimeUnixNano")))
        attrs = attributes(span.get("attributes"), WANTED)
        status = span.get("status")
        deferral = attrs.get(DEFERRAL)
        error = not deferral and ((isinstance(status, dict) and status.get("code") in _ERROR_CODES) or ERROR_TYPE in attrs)
        if error:
            trace.errored = True
        name_value = span.get("name")
        found = classify(attrs, name_value if isinstance(name_value, str) else "")
        if found is None:
            return
        kind, name = found
        if name is None:
            corpus.problem(self.file.label, line, f"a {kind} span without a {kind} name (not counted)")
            return
        corpus.use(trace, kind, name, service, error)
        if kind == "tool" and deferral == "ApprovalRequired":
            corpus.approval(name, "requested")
