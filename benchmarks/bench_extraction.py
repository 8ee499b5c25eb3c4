"""Extraction throughput over a large mixed corpus, single process.

    python benchmarks/bench_extraction.py                  # generated repo with default parameters
    python benchmarks/bench_extraction.py --repeat 1 --profile surface

The corpus is the HEAD tree of the generated repository (see generate_repo.py), read from git once
into memory, so the figures exclude git I/O (printed separately). Measured, each `--repeat` times
(median printed):

- extract:   `receipt.extract.extract_file(path, bytes)` for every source file: per-file facts;
- cache:     the warm-path cost per file: facts -> JSON text (write) and JSON text -> facts (read),
             in memory, without the file system; the read also as a run does it (collector off,
             one run's shared constants): checked (an entry from the cache directory) and unchecked
             (a pool worker's entry, made in the run: `facts_from_json(check=False)`);
- surface:   `receipt.pipeline.surface_from_facts(facts)`: Program build, every dialect, link
             (MB/s and files/s relative to the source corpus);
             with a one-run breakdown per stage so a slow dialect stands out.

`--profile extract|cache|surface` runs that stage once under cProfile and prints the top functions
by cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, mb, median, project_commit, table, timed, timed_cpu
from generate_repo import BENCH_DEFAULTS, add_params, ensure_repo, params_from

from receipt.dialects.registry import dialects
from receipt.extract import extract_file, gc_quiet_run
from receipt.extract.cache import dumps, loads
from receipt.extract.facts import SharedValues, facts_from_json, facts_to_json
from receipt.extract.program import Program
from receipt.gitsource import GitRepo
from receipt.link import link
from receipt.pipeline import surface_from_facts


def load_corpus(repo_dir: Path, rev: str) -> list[tuple[str, bytes]]:
    repo = GitRepo(repo_dir)
    try:
        sha = repo.resolve(rev)
        listing = repo.list_files(sha)
        return [(f.path, repo.read_blob(f.blob)) for f in listing.files]
    finally:
        repo.close()


def extract_all(corpus: list[tuple[str, bytes]]) -> list:
    return [extract_file(p, b) for p, b in corpus]


def cache_write(facts: list) -> list[bytes]:
    # Same encoding as receipt.extract.cache.FactsCache.put.
    return [dumps(facts_to_json(f)) for f in facts]


def cache_read(texts: list[bytes]) -> list:
    return [facts_from_json(loads(t)) for t in texts]


def run_read(texts: list[bytes], check: bool) -> list:
    """`cache_read` as a receipt reads entries: no collections, the run's constants shared."""
    shared = SharedValues()
    with gc_quiet_run():
        return [facts_from_json(loads(t), shared, check=check) for t in texts]


def surface(facts: list):
    return surface_from_facts(facts, rev="HEAD", sha="0" * 40)


def breakdown(facts: list) -> list[tuple[str, float]]:
    """One run of surface_from_facts, stage by stage (same calls, same order)."""
    rows: list[tuple[str, float]] = []
    t, program = timed(lambda: Program([f for f in facts if not f.error]))
    rows.append(("Program (index + names)", t))
    results = []
    for d in dialects():
        t, r = timed(lambda d=d: d.extract(program))
        rows.append((f"dialect {d.NAME}", t))
        results.append(r)
    t, _ = timed(lambda: link(program, results, ()))
    rows.append(("link", t))
    return rows


def profile(label: str, fn) -> None:
    pr = cProfile.Profile()
    pr.enable()
    fn()
    pr.disable()
    print(f"\n## cProfile: {label} (top 30 by cumulative time)\n")
    pstats.Stats(pr, stream=sys.stdout).sort_stats("cumtime").print_stats(30)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_params(ap, BENCH_DEFAULTS)
    ap.add_argument("--rev", default="HEAD", help="revision whose tree is the corpus (default HEAD)")
    ap.add_argument("--repeat", type=int, default=3, help="measurements per figure; the median is printed (default 3)")
    ap.add_argument("--profile", choices=("extract", "cache", "surface"), help="also profile one stage with cProfile")
    args = ap.parse_args(argv)

    repo_dir = ensure_repo(params_from(args), args.repo)
    t_git, corpus = timed(lambda: load_corpus(repo_dir, args.rev))
    n, size = len(corpus), sum(len(b) for _, b in corpus)
    print("# Extraction throughput\n")
    print(f"behavior-receipt {project_commit()} · {machine()}")
    print(f"corpus: {repo_dir.name} @ {args.rev}: {n} source files, {mb(size):.1f} MB (read from git in {t_git:.2f} s)\n")

    ext: list[tuple[float, float]] = []  # (wall, cpu) per repeat
    write: list[tuple[float, float]] = []
    read: list[tuple[float, float]] = []
    run_checked: list[tuple[float, float]] = []
    run_made: list[tuple[float, float]] = []
    surf_t: list[tuple[float, float]] = []
    facts: list = []
    texts: list[bytes] = []
    for _ in range(args.repeat):
        w, c, facts = timed_cpu(lambda: extract_all(corpus))
        ext.append((w, c))
    errors = sum(1 for f in facts if f.error)
    for _ in range(args.repeat):
        w, c, texts = timed_cpu(lambda: cache_write(facts))
        write.append((w, c))
        w, c, _ = timed_cpu(lambda t=texts: cache_read(t))
        read.append((w, c))
        w, c, _ = timed_cpu(lambda t=texts: run_read(t, True))
        run_checked.append((w, c))
        w, c, _ = timed_cpu(lambda t=texts: run_read(t, False))
        run_made.append((w, c))
    json_size = sum(len(s) for s in texts)
    result = None
    for _ in range(args.repeat):
        w, c, result = timed_cpu(lambda: surface(facts))
        surf_t.append((w, c))
    assert result is not None
    surf, issues = result

    def row(label: str, times: list[tuple[float, float]], nbytes: int = size) -> list[object]:
        m = median([w for w, _ in times])
        return [label, f"{m:.2f}", f"{median([c for _, c in times]):.2f}", f"{n / m:,.0f}", f"{mb(nbytes) / m:.2f}"]

    both = [(median([w for w, _ in ext]) + median([w for w, _ in surf_t]), median([c for _, c in ext]) + median([c for _, c in surf_t]))]
    print(
        table(
            ["stage", "wall s", "CPU s", "files/s", "MB/s"],
            [
                row("extract_file (per-file facts)", ext),
                row("cache write (facts -> JSON text)", write, json_size),
                row("cache read (JSON text -> facts)", read, json_size),
                row("  as in a run, collector off: checked", run_checked, json_size),
                row("  as in a run: a worker's entry, unchecked", run_made, json_size),
                row("surface_from_facts (Program + dialects + link)", surf_t),
                row("extract + surface (cold surface, no git, no cache)", both),
            ],
        )
    )
    print(
        f"\n{errors} files with extraction errors; cache JSON {mb(json_size):.1f} MB "
        f"({json_size / size:.1f}x the source; MB/s of cache rows is JSON throughput)"
    )
    print(f"surface: {len(surf.agents)} agents, {len(surf.tools)} tools, {len(surf.prompts)} prompts, {len(issues)} issues")
    print(f"{args.repeat} run(s) per figure, median shown; files/s and MB/s from wall time")
    print(f"all wall times: extract {[round(w, 2) for w, _ in ext]}, surface {[round(w, 2) for w, _ in surf_t]}")

    print("\n## surface_from_facts, one run by stage\n")
    rows = breakdown(facts)
    total = sum(t for _, t in rows)
    print(table(["stage", "wall s", "share"], [[k, f"{t:.2f}", f"{100 * t / total:.0f}%"] for k, t in rows]))
    print(f"\npeak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")

    if args.profile == "extract":
        profile("extract_file over the corpus", lambda: extract_all(corpus))
    elif args.profile == "cache":
        profile("cache write + read (JSON round trip)", lambda: cache_read(cache_write(facts)))
    elif args.profile == "surface":
        profile("surface_from_facts", lambda: surface(facts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
