"""The linking of one receipt's two revisions, part by part, in CPU seconds (facts decoded first).

    python benchmarks/bench_link.py                                   # synthetic 1,500 files, HEAD~1..HEAD
    python benchmarks/bench_link.py --size 5000
    python benchmarks/bench_link.py --repo /work/.mirror/awslabs+mcp/repo --pair 67a86c331~1..67a86c331

Both revisions' facts are read as one receipt reads them (one in-memory facts cache, so the files
they share are the same objects; the cache directory is filled once, untimed, by a receipt), then,
in this process with the cyclic collector off, each revision is linked `--repeat` times as
`surface_from_facts` does: Program, each dialect that runs, link. Printed: the median CPU seconds of
each part over both revisions, and a digest of each revision's entries and issues, which must not
change between two versions of the tool (speed work).

To compare two versions, run it once per version with PYTHONPATH pointing at each tree (a
`git archive` export of the old one, see README "Measuring a committed state"), alternating.
Asserts nothing; prints figures.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import git
from bench_incremental import both_facts
from bench_trace_diff import SIZES
from generate_repo import ensure_repo

from receipt import pipeline
from receipt.dialects.registry import dialects_for
from receipt.extract.program import Program
from receipt.gitsource import GitRepo
from receipt.link import link


def linked(facts: list, layout: object, spent: dict[str, float]) -> str:
    c = time.process_time()
    program = Program(facts, layout)  # type: ignore[arg-type]
    spent["Program"] = spent.get("Program", 0.0) + time.process_time() - c
    imported = [*program.imports.values(), *(s for m in program.modules.values() for s in m.star_imports)]
    results = []
    for d in dialects_for(imported):
        c = time.process_time()
        results.append(d.extract(program))
        spent[d.NAME] = spent.get(d.NAME, 0.0) + time.process_time() - c
    c = time.process_time()
    entries, issues = link(program, results, ())
    spent["link"] = spent.get("link", 0.0) + time.process_time() - c
    text = json.dumps([e.model_dump(mode="json") for e in entries], sort_keys=True) + repr(issues)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=1500, choices=sorted(SIZES), help="synthetic repository size (default 1500)")
    ap.add_argument("--repo", type=Path, help="a repository instead (work tree or bare git dir)")
    ap.add_argument("--pair", default="HEAD~1..HEAD", help="BASE..HEAD (default HEAD~1..HEAD)")
    ap.add_argument("--repeat", type=int, default=3, help="links of both revisions; the median is printed (default 3)")
    ap.add_argument("--cache", type=Path, help="facts cache directory to use (default: a new one in the system temp folder)")
    args = ap.parse_args()
    repo = args.repo or ensure_repo(SIZES[args.size])
    base, _, head = args.pair.partition("..")
    base, head = git(repo, "rev-parse", base), git(repo, "rev-parse", head)
    cache = args.cache or Path(tempfile.mkdtemp(prefix="receipt-bench-link-"))
    if not cache.exists() or not any(cache.iterdir()):
        cache.mkdir(parents=True, exist_ok=True)
        os.environ["RECEIPT_CACHE_DIR"] = str(cache)
        pipeline.build_receipt(str(repo), base, head)  # fills the facts cache (untimed)
        del os.environ["RECEIPT_CACHE_DIR"]
    (bf, bl), (hf, hl) = both_facts(GitRepo(str(repo)), cache, base, head)
    gc.disable()
    runs: list[dict[str, float]] = []
    digests = set()
    for _ in range(args.repeat):
        spent: dict[str, float] = {}
        c = time.process_time()
        digests.add((linked(bf, bl, spent), linked(hf, hl, spent)))
        spent["both revisions"] = time.process_time() - c
        runs.append(spent)
        gc.collect()
    print(f"{repo} {args.pair}: CPU seconds, both revisions, median of {args.repeat} (load average {os.getloadavg()[0]:.1f})")
    for part in runs[0]:
        print(f"  {part:16s} {statistics.median(r[part] for r in runs):7.3f}")
    print(f"  digests (base, head): {', '.join(' '.join(d) for d in sorted(digests))}{'' if len(digests) == 1 else '  NOT THE SAME EVERY RUN'}")


if __name__ == "__main__":
    main()
