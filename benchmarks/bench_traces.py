"""Benchmark: reading a recorded-trace corpus (OTLP/JSON, the collector file exporter's layout).

Generates (once) N traces of OTLP/JSON under benchmarks/.work/traces-N/ - by default 100,000
traces, about 1 GB - then, in a fresh child process, reads them with `receipt.traces.read_corpus`
and matches a few changes (`traffic_for`), and prints MB/s, traces/s and the child's peak RSS.
Not a test: it asserts nothing. Check free disk first (`df -h /work`): the default needs ~1.1 GB.

    .venv/bin/python benchmarks/bench_traces.py [--traces 100000] [--files 20] [--gzip] [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "benchmarks" / ".work"
TOOLS = [f"tool_{i:03d}" for i in range(200)]
AGENTS = [f"agent_{i:02d}" for i in range(20)]
T0 = 1_767_225_600 * 10**9
PER_LINE = 100  # traces per ExportTraceServiceRequest line


def _attr(key: str, value: str) -> str:
    return '{"key":%s,"value":{"stringValue":%s}}' % (json.dumps(key), json.dumps(value))


def _span(trace_id: str, span_id: int, name: str, attrs: list[str], start: int, error: bool) -> str:
    status = ',"status":{"code":2,"message":"tool failed"}' if error else ',"status":{}'
    return (
        '{"traceId":"%s","spanId":"%016x","parentSpanId":"","name":%s,"kind":1,'
        '"startTimeUnixNano":"%d","endTimeUnixNano":"%d","attributes":[%s]%s}'
        % (trace_id, span_id, json.dumps(name), start, start + 1_500_000, ",".join(attrs), status)
    )


def _trace(rng: random.Random, n: int) -> list[str]:
    """~10 KB: one agent span, 4-8 tool spans, 3 chat spans with message-sized attributes."""
    tid = f"{rng.getrandbits(128):032x}"
    start = T0 + n * 50_000_000
    agent = rng.choice(AGENTS)
    spans = [_span(tid, 1, f"invoke_agent {agent}", [_attr("gen_ai.operation.name", "invoke_agent"), _attr("gen_ai.agent.name", agent)], start, False)]
    for k in range(rng.randint(4, 8)):
        tool = TOOLS[min(int(rng.paretovariate(1.2)) - 1, len(TOOLS) - 1)]
        args = json.dumps({"order_id": f"o-{rng.getrandbits(32)}", "note": "x" * rng.randint(100, 600)})
        spans.append(
            _span(tid, 2 + k, f"execute_tool {tool}", [
                _attr("gen_ai.operation.name", "execute_tool"), _attr("gen_ai.tool.name", tool),
                _attr("gen_ai.tool.call.id", f"call_{rng.getrandbits(64):x}"), _attr("gen_ai.tool.call.arguments", args),
            ], start + k * 1000, rng.random() < 0.02)
        )
    for k in range(3):
        spans.append(
            _span(tid, 20 + k, "chat gpt-5", [
                _attr("gen_ai.operation.name", "chat"), _attr("gen_ai.request.model", "gpt-5"),
                _attr("gen_ai.output.messages", "y" * rng.randint(800, 1600)),
            ], start + 10_000 + k, False)
        )
    return spans


def generate(n_traces: int, n_files: int, gz: bool) -> Path:
    out = WORK / f"traces-{n_traces}-f{n_files}{'-gz' if gz else ''}"
    done = out / ".complete"
    if done.exists():
        return out
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    rng = random.Random(1)
    t = time.perf_counter()
    per_file = -(-n_traces // n_files)
    n = 0
    for f in range(n_files):
        name = out / f"export-{f:03d}.jsonl{'.gz' if gz else ''}"
        import gzip

        opener = (lambda p: gzip.open(p, "wt", compresslevel=1, encoding="utf-8")) if gz else (lambda p: open(p, "w", encoding="utf-8"))
        with opener(name) as fh:
            left = min(per_file, n_traces - n)
            while left > 0:
                batch = min(PER_LINE, left)
                spans: list[str] = []
                for _ in range(batch):
                    spans += _trace(rng, n)
                    n += 1
                fh.write('{"resourceSpans":[{"resource":{"attributes":[%s]},"scopeSpans":[{"scope":{"name":"bench"},"spans":[%s]}]}]}\n'
                         % (_attr("service.name", "shop-api"), ",".join(spans)))
                left -= batch
    done.write_text("ok\n")
    size = sum(p.stat().st_size for p in out.iterdir())
    print(f"generated {n:,} traces, {size / 1e6:,.0f} MB in {n_files} files in {time.perf_counter() - t:.1f} s -> {out}")
    return out


CHILD = r"""
import json, os, resource, sys, time
sys.path.insert(0, sys.argv[2])
from receipt.models import Change, Subject
from receipt.traces import read_corpus
from receipt.traces.match import traffic_for
t = time.perf_counter(); c0 = time.process_time()
corpus = read_corpus([sys.argv[1]])
read_s = time.perf_counter() - t; read_cpu = time.process_time() - c0
changes = [Change(id="tool.approval_lowered", severity="regression", subject=Subject(kind="tool", name=n, key="tool:" + n),
                  message="m", fingerprint=f"{i:012x}") for i, n in enumerate(["tool_000", "tool_007", "tool_150", "missing"])]
t = time.perf_counter()
traffic = traffic_for(corpus, changes, [])
match_s = time.perf_counter() - t
size = sum(f.size for f in corpus.files)
print(json.dumps({"read_s": read_s, "read_cpu": read_cpu, "match_s": match_s, "bytes": size, "traces": len(corpus.traces),
                  "records": corpus.records, "shares": [t.share for t in traffic], "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--traces", type=int, default=100_000)
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--gzip", action="store_true", help="write the corpus gzip-compressed (level 1)")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    corpus_dir = generate(args.traces, args.files, args.gzip)
    print(f"load average: {os.getloadavg()[0]:.1f} (2 cores shared with other work: wall time includes waiting)")
    for _ in range(args.repeat):
        p = subprocess.run([sys.executable, "-c", CHILD, str(corpus_dir), str(ROOT)], capture_output=True, text=True)
        if p.returncode:
            sys.exit(p.stderr)
        r = json.loads(p.stdout)
        mb = r["bytes"] / 1e6
        print(
            f"read {mb:,.0f} MB on disk, {r['traces']:,} traces, {r['records']:,} spans: {r['read_s']:.1f} s wall, {r['read_cpu']:.1f} s CPU "
            f"-> {mb / r['read_s']:.1f} MB/s, {r['traces'] / r['read_s']:,.0f} traces/s (CPU: {mb / r['read_cpu']:.1f} MB/s); "
            f"match 4 changes: {r['match_s']:.2f} s; peak RSS {r['rss_mb']:.0f} MB; shares {r['shares']}"
        )


if __name__ == "__main__":
    main()
