"""End-to-end `trace-diff` timings on the generated repository: cold and warm cache, peak memory.

    python benchmarks/bench_trace_diff.py                  # generated repo with default parameters
    python benchmarks/bench_trace_diff.py --repeat 1 --ranges HEAD~1

Runs, each `--repeat` times (median printed), every one in a fresh child process so that its peak
memory is its own (`os.wait4` gives the child's `ru_maxrss` and CPU time):

- in-process: `receipt.pipeline.build_receipt(repo, BASE, HEAD)` + `receipt.render.render_markdown`,
  timed inside the child around those two calls only (imports excluded), for each range in
  `--ranges` (default `HEAD~1` and `HEAD~10`, both against `HEAD`);
- CLI: the real `trace-diff BASE HEAD --repo R --output F` console script, timed from the outside
  (interpreter start-up and imports included): the figure a user sees. Range: the first of
  `--ranges`.

"cold" starts from an empty facts cache (`RECEIPT_CACHE_DIR` = a fresh temporary directory);
"warm" is the next run with the same cache. "extracted" is how many files were actually parsed
(new cache entries); everything else came from the cache.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import PROJECT, git, machine, median, project_commit, table
from generate_repo import BENCH_DEFAULTS, add_params, ensure_repo, params_from


@dataclass
class Run:
    wall: float  # seconds: inside the worker (in-process runs) or around the whole process (CLI)
    cpu: float  # user + system seconds, measured the same way as wall
    rss_mb: float  # peak resident set of the child
    extracted: int  # new cache entries: files parsed in this run
    chars: int  # receipt size
    exit_code: int


def cache_entries(cache: Path) -> int:
    return sum(1 for _ in cache.rglob("*.json")) if cache.exists() else 0


def spawn(cmd: list[str], cache: Path) -> tuple[float, float, float, int, str]:
    """Run `cmd` with RECEIPT_CACHE_DIR=cache; (wall, cpu, peak RSS MB, exit code, stdout)."""
    env = {**os.environ, "RECEIPT_CACHE_DIR": str(cache), "PYTHONPATH": str(PROJECT)}
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        if proc.stderr:
            proc.stderr.close()
        out.seek(0)
        text = out.read().decode()
    if proc.returncode not in (0, 1):  # 1 = findings at or above --fail-on: expected here
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}:\n{err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode, text


def run_inprocess(repo: Path, base: str, head: str, cache: Path) -> Run:
    before = cache_entries(cache)
    cmd = [sys.executable, __file__, "--worker", str(repo), base, head]
    _, _, rss, code, text = spawn(cmd, cache)
    report = json.loads(text.strip().splitlines()[-1])
    return Run(report["wall"], report["cpu"], rss, cache_entries(cache) - before, report["chars"], code)


def cli_command() -> list[str]:
    script = Path(sys.executable).with_name("trace-diff")
    return [str(script)] if script.exists() else [sys.executable, "-m", "receipt", "trace-diff"]


def run_cli(repo: Path, base: str, head: str, cache: Path, out_dir: Path) -> Run:
    before = cache_entries(cache)
    output = out_dir / "receipt.md"
    wall, cpu, rss, code, _ = spawn([*cli_command(), base, head, "--repo", str(repo), "--output", str(output)], cache)
    return Run(wall, cpu, rss, cache_entries(cache) - before, len(output.read_text(encoding="utf-8")), code)


def worker(repo: str, base: str, head: str) -> int:
    """Child side of an in-process run: time build_receipt + render_markdown only."""
    from receipt.pipeline import build_receipt
    from receipt.render import render_markdown

    t0, c0 = time.perf_counter(), time.process_time()
    receipt = build_receipt(repo, base, head)
    text = render_markdown(receipt)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(json.dumps({"wall": wall, "cpu": cpu, "chars": len(text), "changes": len(receipt.changes)}))
    return 1 if not receipt.verdict.ok else 0


def measure(label: str, rng: str, repeat: int, fn) -> list[list[object]]:
    """`repeat` x (cold, warm) with a fresh cache each time; two table rows of medians."""
    cold: list[Run] = []
    warm: list[Run] = []
    for i in range(repeat):
        tmp = Path(tempfile.mkdtemp(prefix="receipt-bench-"))
        try:
            cold.append(fn(tmp / "cache", tmp))
            warm.append(fn(tmp / "cache", tmp))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        print(f"  {label} {rng}: run {i + 1}/{repeat}: cold {cold[-1].wall:.1f} s, warm {warm[-1].wall:.1f} s", file=sys.stderr, flush=True)
    rows = []
    for kind, runs in (("cold", cold), ("warm", warm)):
        rows.append(
            [
                label,
                rng,
                kind,
                f"{median([r.wall for r in runs]):.2f}",
                f"{median([r.cpu for r in runs]):.2f}",
                f"{max(r.rss_mb for r in runs):.0f}",
                f"{median([r.extracted for r in runs]):.0f}",
                f"{runs[0].chars:,}",
            ]
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "--worker":
        return worker(*sys.argv[2:5])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_params(ap, BENCH_DEFAULTS)
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure; the median is printed (default 3)")
    ap.add_argument("--ranges", default="HEAD~1,HEAD~10", help="bases compared against HEAD, comma-separated (default HEAD~1,HEAD~10)")
    ap.add_argument("--no-cli", action="store_true", help="skip the CLI subprocess runs")
    args = ap.parse_args(argv)

    repo = ensure_repo(params_from(args), args.repo)
    bases = [b.strip() for b in args.ranges.split(",") if b.strip()]
    head_sha = git(repo, "rev-parse", "--short=12", "HEAD")
    n_py = sum(1 for f in git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines() if f.endswith(".py"))
    print("# trace-diff end to end\n")
    print(f"behavior-receipt {project_commit()} · {machine()} · load average at start {os.getloadavg()[0]:.1f}")
    print(f"repository: {repo.name} (HEAD {head_sha}, {n_py} Python files); {args.repeat} run(s) per figure, median shown\n")

    rows: list[list[object]] = []
    for base in bases:
        rows += measure("in-process", f"{base}..HEAD", args.repeat, lambda c, _t, b=base: run_inprocess(repo, b, "HEAD", c))
    if not args.no_cli and bases:
        base = bases[0]
        rows += measure("CLI", f"{base}..HEAD", args.repeat, lambda c, t, b=base: run_cli(repo, b, "HEAD", c, t))
    print(table(["run", "range", "cache", "wall s", "CPU s", "peak RSS MB", "extracted", "receipt chars"], rows))
    print(
        "\nwall and CPU (user+system): in-process = build_receipt + render_markdown, timed inside the child;"
        "\nCLI = the whole process, start-up included. peak RSS: the child's ru_maxrss, max over runs."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
