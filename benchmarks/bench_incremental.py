"""Where an incremental receipt's time goes, and how much of the program its dialects need.

    python benchmarks/bench_incremental.py                                  # synthetic 1,500 files, HEAD~1..HEAD
    python benchmarks/bench_incremental.py --repo /work/.mirror/awslabs+mcp/repo --pair 67a86c331~1..67a86c331

The case of issue 14's "incremental" figure, in one process: the base's surface is computed first
into an empty cache directory (as a push to the default branch leaves it), then the head is taken
apart stage by stage, in CPU seconds (median of `--repeat`), with what `build_surface` does:

- facts: every listed file of the head, decoded from the cache (files that differ from the base
  are extracted from their blobs, as a receipt does);
- Program, each dialect that runs, link: `surface_from_facts`, stage by stage.

Then the receipt as `trace-diff` runs it (`build_receipt`, in this process, on a copy of the cache
the base left, so that each run is an incremental one): its CPU seconds, and those of its stages
(functions wrapped for the count; `Program()` is counted inside the stages that build one, so the
stages do not add up): the head's facts, the base's program built again for the kept screens
(`_prior_screens`, see pipeline.KEEP_SCREENS), the head's Program + dialects + link.

Then, once, how much of the program the dialects reach (instrumented `Program`):

- modules holding what a dialect found (an entry or an issue);
- modules whose definitions a dialect read outside name resolution (a `functions`/`classes`/
  `assigns` lookup outside `canonical` that found something): what a per-module lazy decode would
  have to decode, when names (and failed lookups) are answered from a small per-module index;
- screens (sound; what a receipt does with `pipeline.SHARE_SCREENS`, off since it cost more than it
  saved on a cold run): the base's dialects run with a `ScreenMemo`, recording what
  each screened scan read in each module, then the head's reuse it for the modules both share (one
  facts cache, as a receipt reads both revisions): each side's dialect CPU time beside the same
  dialects without a memo, and whether the results are the same;
- an orientation probe, NOT a sound method: every dialect again with its whole-program scans limited
  to the modules where the base found something plus the changed ones (lookups still see every
  module), its CPU time, and whether the result is the same. A "no" shows that registrations are
  decided in modules holding no entry, so scans must be screened per site with recorded reads.

Asserts nothing; prints figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, median, project_commit, table
from generate_repo import Params, ensure_repo

from receipt import pipeline
from receipt.config import Config
from receipt.dialects.registry import dialects_for
from receipt.extract import gc_quiet_run
from receipt.extract.cache import FactsCache
from receipt.extract.program import Program
from receipt.extract.screens import ScreenMemo
from receipt.gitsource import GitRepo
from receipt.link import link


def cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    c0 = time.process_time()
    out = fn()
    return time.process_time() - c0, out


def head_facts(repo: GitRepo, cache_dir: Path, base: str, head: str) -> tuple[list, Any, set[str]]:
    """The head's facts as a receipt reads them (its own in-memory cache: nothing decoded before)."""
    cfg = Config()
    base_listing = pipeline._listing(repo, base, (), cfg, False)
    head_listing = pipeline._listing(repo, head, (), cfg, False)
    fresh = frozenset({(f.blob, f.path) for f in base_listing.files} ^ {(f.blob, f.path) for f in head_listing.files})
    facts, _errors, _skipped = pipeline._facts_for(repo, head_listing, FactsCache(cache_dir), lambda _: None, fresh, cfg.max_file_bytes)
    layout = pipeline.layout_of(repo, pipeline._layout_files(repo, head), head_listing)
    return [f for f in facts if not f.error], layout, {path for _blob, path in fresh}


def run_dialects(program: Program) -> tuple[list, dict[str, float]]:
    imported = [*program.imports.values(), *(s for m in program.modules.values() for s in m.star_imports)]
    results, times = [], {}
    for d in dialects_for(imported):
        times[d.NAME], r = cpu(lambda d=d: d.extract(program))
        results.append((d.NAME, r))
    return results, times


def both_facts(repo: GitRepo, cache_dir: Path, base: str, head: str) -> tuple[tuple[list, Any], tuple[list, Any]]:
    """Both revisions' facts as one receipt reads them: one in-memory cache, so the files the two
    share are the same facts objects."""
    cfg = Config()
    listings = [pipeline._listing(repo, sha, (), cfg, False) for sha in (base, head)]
    fresh = frozenset({(f.blob, f.path) for f in listings[0].files} ^ {(f.blob, f.path) for f in listings[1].files})
    cache = FactsCache(cache_dir)
    out = []
    for sha, listing in zip((base, head), listings):
        facts, _errors, _skipped = pipeline._facts_for(repo, listing, cache, lambda _: None, fresh, cfg.max_file_bytes)
        out.append(([f for f in facts if not f.error], pipeline.layout_of(repo, pipeline._layout_files(repo, sha), listing)))
    return out[0], out[1]


def screens(repo: GitRepo, cache_dir: Path, base: str, head: str, repeat: int) -> None:
    (bf, bl), (hf, hl) = both_facts(repo, cache_dir, base, head)
    rows: dict[str, list[float]] = {}
    same = True
    for _ in range(repeat):
        plain = [run_dialects(Program(f, layout)) for f, layout in ((bf, bl), (hf, hl))]
        memo = ScreenMemo()
        programs = []
        for f, layout in ((bf, bl), (hf, hl)):
            programs.append(Program(f, layout))
            programs[-1].screens = memo
        t, _ = cpu(lambda: memo.attach(programs[0]))
        with_memo = [run_dialects(programs[0])]
        memo.last()  # as build_receipt: the head reuses, records nothing
        t, _ = cpu(lambda: memo.attach(programs[1]))  # compare the two programs (counted with the head)
        with_memo.append(run_dialects(programs[1]))
        with_memo[1][1]["(attach)"] = t
        for side, (a, b) in zip(("base", "head"), zip(plain, with_memo)):
            rows.setdefault(f"{side}: dialects without a memo", []).append(sum(a[1].values()))
            rows.setdefault(f"{side}: dialects with the memo", []).append(sum(b[1].values()))
        same = same and [digest(p, r[0]) for p, r in zip(programs, with_memo)] == [
            digest(Program(f, layout), r[0]) for (f, layout), r in zip(((bf, bl), (hf, hl)), plain)
        ]
    print(table(["screens (a receipt's two programs)", "CPU s"], [[k, f"{median(v):.3f}"] for k, v in rows.items()]))
    print(f"\nmemo: {memo.reused} module screens reused by the head, {memo.computed} computed in all; same results: {'yes' if same else 'NO'}\n")


def as_run(repo_dir: Path, cache_dir: Path, base: str, head: str, repeat: int) -> None:
    """`build_receipt(base, head)` on copies of `cache_dir` (the base's surface and screens stored),
    with its stages' CPU seconds."""
    import collections
    import shutil

    import receipt.link
    from receipt.extract import program as program_module

    spent: collections.Counter[str] = collections.Counter()
    wrapped: list[tuple[Any, str, Any]] = []

    def count(owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            c0 = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                spent[label] += time.process_time() - c0

        wrapped.append((owner, name, original))
        setattr(owner, name, timed)

    count(pipeline, "_facts_for", "facts (decoded; changed files extracted)")
    count(pipeline, "_prior_screens", "kept screens: the base's program again, the entry read")
    count(pipeline, "surface_from_facts", "Program + dialects + link")
    count(receipt.link, "link", "link")
    count(program_module.Program, "__init__", "Program() (within the above)")
    runs: dict[str, list[float]] = {}
    same: set[str] = set()
    try:
        for i in range(repeat):
            run_dir = cache_dir.parent / f"run-{i}"
            shutil.copytree(cache_dir, run_dir)
            spent.clear()
            os.environ["RECEIPT_CACHE_DIR"] = str(run_dir)
            try:
                t, r = cpu(lambda: pipeline.build_receipt(str(repo_dir), base, head))
            finally:
                del os.environ["RECEIPT_CACHE_DIR"]
                shutil.rmtree(run_dir, ignore_errors=True)
            same.add(r.model_dump_json())
            runs.setdefault("build_receipt (all)", []).append(t)
            for k, v in spent.items():
                runs.setdefault(k, []).append(v)
    finally:
        for owner, name, original in wrapped:
            setattr(owner, name, original)
    print(table(["a receipt as trace-diff runs it (base cached)", "CPU s"], [[k, f"{median(v):.3f}"] for k, v in runs.items()]))
    print(f"\nsame receipt every run: {'yes' if len(same) == 1 else 'NO'} (imports and rendering not counted)\n")


def digest(program: Program, results: list) -> str:
    entries, issues = link(program, [r for _, r in results], ())
    text = json.dumps([e.model_dump(mode="json") for e in entries], sort_keys=True) + repr(issues)
    return hashlib.sha256(text.encode()).hexdigest()


class _Reads(dict):
    """A Program index that notes the module of each definition read from it (membership tests and
    failed lookups are not noted: a per-module index of names answers them)."""

    __slots__ = ("note",)

    def get(self, key: Any, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            self.note(key)
        return dict.get(self, key, default)

    def __getitem__(self, key: Any) -> Any:
        self.note(key)
        return dict.__getitem__(self, key)


def reach(facts: list, layout: Any) -> tuple[list[list[object]], set[str]]:
    """Per dialect: modules holding its findings, and modules read beyond name resolution."""
    program = Program(facts, layout)
    module_for = Program._module_for
    read: set[str] = set()
    resolving = [0]

    def note(key: Any) -> None:
        if resolving[0] == 0 and isinstance(key, str):
            split = module_for(program, key)
            if split:
                read.add(split[0])

    canonical = program._canonical

    def tracked_canonical(name: str, depth: int) -> str:
        resolving[0] += 1
        try:
            return canonical(name, depth)
        finally:
            resolving[0] -= 1

    program._canonical = tracked_canonical  # type: ignore[method-assign]
    for name in ("functions", "classes", "assigns"):
        index = _Reads(getattr(program, name))
        index.note = note
        setattr(program, name, index)
    module_of_path = {m.path: m.module for m in program.modules.values()}
    rows: list[list[object]] = []
    found_anywhere: set[str] = set()
    imported = [*program.imports.values(), *(s for m in program.modules.values() for s in m.star_imports)]
    for d in dialects_for(imported):
        read.clear()
        r = d.extract(program)
        found = {module_of_path.get(c.entry.path) for c in r.candidates} | {module_of_path.get(i.path) for i in r.issues}
        found.discard(None)
        found_anywhere |= found  # type: ignore[arg-type]
        rows.append([d.NAME, len(r.candidates) + len(r.issues), len(found), len(read), len(program.modules)])
    return rows, found_anywhere  # type: ignore[return-value]


class _Scanned(dict):
    """Program.modules whose iteration (the dialects' whole-program scans) yields only `keep`;
    membership and lookups still see every module."""

    __slots__ = ("keep",)

    def values(self):  # type: ignore[override]
        return [m for k, m in dict.items(self) if k in self.keep]

    def items(self):  # type: ignore[override]
        return [(k, m) for k, m in dict.items(self) if k in self.keep]

    def __iter__(self):  # type: ignore[override]
        return iter([k for k in dict.keys(self) if k in self.keep])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=1500, help="synthetic repository size (default 1,500: 90 agent files, 60 others)")
    ap.add_argument("--repo", type=Path, default=None, help="a repository to use instead of the synthetic one")
    ap.add_argument("--pair", default="HEAD~1..HEAD", help="BASE..HEAD (default HEAD~1..HEAD)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per timing, median printed (default 3)")
    args = ap.parse_args(argv)
    if args.repo is None:
        agents, others = max(1, args.files * 6 // 100), max(1, args.files // 25)
        args.repo = ensure_repo(Params(files=args.files, agents=agents, commits=50, others=others))
    base_rev, _, head_rev = args.pair.partition("..")
    repo = GitRepo(args.repo)
    base, head = repo.resolve(base_rev), repo.resolve(head_rev)
    print(f"# incremental receipt, stage by stage\n\nbehavior-receipt {project_commit()} · {machine()}")
    print(f"{args.repo} {args.pair}; CPU seconds, median of {args.repeat}\n")
    # As a receipt runs: no cyclic-GC passes (see receipt.extract.gc_quiet_run).
    with tempfile.TemporaryDirectory(prefix="bench-incremental-") as tmp, gc_quiet_run():
        cache_dir = Path(tmp) / "cache"
        cache_dir.mkdir()
        base_cache = FactsCache(cache_dir)
        pipeline.build_surface(repo, base, cache=base_cache)  # the base computed before (with its kept screens)
        base_cache.settle()
        runs: dict[str, list[float]] = {}
        for _ in range(args.repeat):
            t, (facts, layout, changed) = cpu(lambda: head_facts(repo, cache_dir, base, head))
            runs.setdefault("facts (decoded; changed files extracted)", []).append(t)
            t, program = cpu(lambda: Program(facts, layout))
            runs.setdefault("Program", []).append(t)
            results, times = run_dialects(program)
            for name, s in times.items():
                runs.setdefault(f"dialect {name}", []).append(s)
            t, _ = cpu(lambda: link(program, [r for _, r in results], ()))
            runs.setdefault("link", []).append(t)
        total = sum(median(v) for v in runs.values())
        print(table(["stage", "CPU s", "share"], [[k, f"{median(v):.3f}", f"{median(v) / total:.0%}"] for k, v in runs.items()]))
        print(f"\n{len(facts)} modules, {len(changed)} files differ from the base\n")

        as_run(args.repo, cache_dir, base, head, args.repeat)

        screens(repo, cache_dir, base, head, args.repeat)

        rows, _ = reach(facts, layout)
        print(table(["dialect", "found (entries + issues)", "modules holding them", "modules whose definitions it read", "modules"], rows))

        base_facts, base_layout, _ = head_facts(repo, cache_dir, head, base)  # the base's facts, same way
        base_program = Program(base_facts, base_layout)
        base_results, _ = run_dialects(base_program)
        by_path = {m.path: m.module for m in base_program.modules.values()}
        found = {by_path.get(c.entry.path) for _, r in base_results for c in r.candidates}
        found |= {by_path.get(i.path) for _, r in base_results for i in r.issues}
        program = Program(facts, layout)
        full_results, full_times = run_dialects(program)
        full = digest(program, full_results)
        limited = Program(facts, layout)
        keep = {m.module for m in limited.modules.values() if m.path in changed} | (found - {None})
        scanned = _Scanned(limited.modules)
        scanned.keep = keep
        limited.modules = scanned
        limited_results, limited_times = run_dialects(limited)
        same = digest(limited, limited_results) == full
        print(f"\nprobe (not sound): scans limited to {len(keep)} of {len(program.modules)} modules (where the base found "
              f"something, plus changed ones): dialects {sum(full_times.values()):.3f} -> {sum(limited_times.values()):.3f} "
              f"CPU s; same result: {'yes' if same else 'no'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
