"""Record/replay captures: one JSON object per line, `{"i": step, "kind": ..., "payload": {...}}`.

Kinds read: `tool` (payload `name`, `args`, `result`, `err`: a non-empty `err` is a failed call),
`model` (payload `prompt`, when it names one). `now`, `rng_seed`, `env` and `input` rows are
known and carry nothing to match; any other kind is counted as unknown and skipped. A capture
is one trace (its `run_id` when rows carry one, else the file).
"""

from __future__ import annotations

from typing import Any

from receipt.traces.corpus import Reader
from receipt.traces.source import MalformedLine
from receipt.traces.values import failed, text

KNOWN = frozenset({"tool", "model", "now", "rng_seed", "env", "input"})


def recognises(value: Any) -> bool:
    return isinstance(value, dict) and "i" in value and isinstance(value.get("kind"), str) and "payload" in value


class Reader_(Reader):
    format = "replay"

    def feed(self, line: int, value: Any) -> None:
        if not isinstance(value, dict):
            raise MalformedLine("not a JSON object")
        corpus = self.corpus
        corpus.records += 1
        trace = corpus.trace(text(value.get("run_id")) or self.file_key)
        kind = value.get("kind")
        if kind not in KNOWN:
            corpus.unknown(kind)
            return
        payload = value.get("payload")
        if not isinstance(payload, dict):
            if kind in ("tool", "model"):
                raise MalformedLine(f"a {kind} row without a payload object")
            return
        if kind == "tool":
            name = text(payload.get("name"))
            if name is None:
                raise MalformedLine("a tool row without a name")
            corpus.use(trace, "tool", name, "", failed(payload.get("err")))
        elif kind == "model":
            prompt = text(payload.get("prompt"))
            if prompt is not None:
                corpus.use(trace, "prompt", prompt, "", failed(payload.get("err")))
