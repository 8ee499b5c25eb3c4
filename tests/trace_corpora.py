"""Small trace corpora in each format the traces reader supports, written by hand for the tests."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Iterable

T0 = 1_767_225_600  # 2026-01-01T00:00:00Z


def attr(key: str, value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        v = {"boolValue": value}
    elif isinstance(value, int):
        v = {"intValue": str(value)}
    else:
        v = {"stringValue": value}
    return {"key": key, "value": v}


def span(trace_id: str, name: str, attrs: dict[str, Any], *, start: int = T0, seconds: int = 1, error: bool = False) -> dict[str, Any]:
    s: dict[str, Any] = {
        "traceId": trace_id,
        "spanId": "00f067aa0ba902b7",
        "name": name,
        "kind": 1,
        "startTimeUnixNano": str(start * 10**9),
        "endTimeUnixNano": str((start + seconds) * 10**9),
        "attributes": [attr(k, v) for k, v in attrs.items()],
    }
    if error:
        s["status"] = {"code": 2, "message": "failed"}
    return s


def tool_span(trace_id: str, tool: str, **kw: Any) -> dict[str, Any]:
    return span(trace_id, f"execute_tool {tool}", {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool}, **kw)


def agent_span(trace_id: str, agent: str, **kw: Any) -> dict[str, Any]:
    return span(trace_id, f"invoke_agent {agent}", {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": agent}, **kw)


def request(spans: Iterable[dict[str, Any]], service: str = "shop-api") -> dict[str, Any]:
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": [attr("service.name", service)]},
                "scopeSpans": [{"scope": {"name": "test"}, "spans": list(spans)}],
            }
        ]
    }


def write_lines(path: Path, rows: Iterable[Any], *, gz: bool = False) -> Path:
    data = "".join(json.dumps(r) + "\n" for r in rows).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    if gz:
        path.write_bytes(gzip.compress(data, mtime=0))
    else:
        path.write_bytes(data)
    return path


def corvid_run(run_id: str, agent: str, tools: Iterable[str], *, failed_tools: Iterable[str] = (), ok: bool = True, version: int = 2, ts_ms: int = T0 * 1000) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [
        {"kind": "schema_header", "version": version, "writer": "corvid-vm", "run_id": run_id},
        {"kind": "run_started", "agent": agent, "ts_ms": ts_ms},
    ]
    failed = set(failed_tools)
    for t in tools:
        rows.append({"kind": "tool_call", "tool": t, "args": {"order_id": "o-1"}})
        rows.append({"kind": "tool_result", "tool": t, "result": None if t in failed else "ok", "error": "refused" if t in failed else None})
    rows.append({"kind": "run_completed", "ok": ok, "error": None if ok else "boom", "ts_ms": ts_ms + 60_000})
    return rows


def replay_capture(tools: Iterable[tuple[str, str | None]]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [{"i": 0, "kind": "rng_seed", "payload": {"seed": 7}}]
    for n, (name, err) in enumerate(tools, start=1):
        rows.append({"i": n, "kind": "tool", "payload": {"name": name, "args": {}, "result": None if err else 1, "err": err}})
    return rows
