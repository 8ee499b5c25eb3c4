"""Receipts byte-identical between two versions of behavior-receipt, over a repository's whole history.

    python benchmarks/compare_receipts.py                     # old = merge-base(HEAD, main), new = this tree
    python benchmarks/compare_receipts.py --old 14e6cf7 --files 1500 --seeds 0,123

For every commit of the synthetic repository (or `--repo`), the receipt of HEAD~k+1 -> HEAD~k, as
markdown and as JSON, is computed by each version of the tool under each PYTHONHASHSEED; all of
them must be identical. Each (version, seed) is one child process that computes every receipt in
turn with one cache directory, as successive CI runs would (cold first, warm later, incremental
in between), and then all of them again (identical reruns). With `--cold`, every receipt is computed
with no cache directory, as a first CI run would (extraction of both whole trees each time), once.
With `--precompute`, each receipt's base surface is computed first (`build_surface`, which keeps its
screens), so that the receipt is the incremental one a push to the default branch prepares (its
head reads the cache lazily, pipeline.LAZY_HEADS).
Speed work must not change a byte.

`--old`/`--new` are git revisions of this project, exported with `git archive` to a temporary
directory; `--new` defaults to the working tree. A version compared with itself under two seeds
also checks hash-seed independence.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import PROJECT, git
from generate_repo import Params, ensure_repo

CHILD = r"""
import hashlib, json, os, sys
repo, pairs = sys.argv[1], json.loads(sys.argv[2])
from receipt.gitsource import GitRepo
from receipt.pipeline import build_receipt, build_surface
from receipt.render import render_json, render_markdown
out = {}
for attempt in sys.argv[3].split(","):
    for base, head in pairs:
        if os.environ.get("COMPARE_PRECOMPUTE"):  # the base's surface (and its screens) first, as a push computes it
            with GitRepo(repo) as g:
                build_surface(g, base)
        r = build_receipt(repo, base, head)
        text = render_markdown(r) + "\0" + render_json(r)
        out[f"{attempt} {base}..{head}"] = hashlib.sha256(text.encode()).hexdigest()
print(json.dumps(out))
"""


def export(rev: str, into: Path) -> Path:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(PROJECT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def receipts(tree: Path, repo: Path, pairs: list[tuple[str, str]], seed: str, cache: Path | None, precompute: bool = False) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": seed, "RECEIPT_CACHE_DIR": str(cache) if cache else "off", "RECEIPT_TODAY": "2026-01-01"}
    if precompute:
        env["COMPARE_PRECOMPUTE"] = "1"
    env.pop("GITHUB_ACTIONS", None)
    attempts = "first" if cache is None else "first,again"
    proc = subprocess.run([sys.executable, "-c", CHILD, str(repo), json.dumps(pairs), attempts], cwd=tree, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{tree} (seed {seed}) failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", default="", help="project revision to compare against (default: merge-base(HEAD, main))")
    ap.add_argument("--new", default="", help="project revision under test (default: the working tree)")
    ap.add_argument("--files", type=int, default=500, help="synthetic repository size (default 500)")
    ap.add_argument("--repo", type=Path, default=None, help="a repository to use instead of the synthetic one")
    ap.add_argument("--max-commits", type=int, default=60, help="newest N first-parent commits (default 60)")
    ap.add_argument("--seeds", default="0,4242", help="PYTHONHASHSEED values (default 0,4242)")
    ap.add_argument("--cold", action="store_true", help="every receipt without a cache directory (cold), computed once")
    ap.add_argument("--precompute", action="store_true", help="each receipt's base surface computed first (`receipt surface`, with its kept screens): incremental receipts as after a push to the default branch")
    args = ap.parse_args(argv)

    old_rev = args.old or git(PROJECT, "merge-base", "HEAD", "main")
    repo = args.repo or ensure_repo(Params(files=args.files, agents=max(10, args.files * 6 // 100), commits=50, others=args.files // 25), quiet=True)
    shas = git(repo, "rev-list", "--first-parent", f"--max-count={args.max_commits + 1}", "HEAD").split()
    pairs = [(shas[i + 1], shas[i]) for i in range(len(shas) - 1)]
    seeds = [s.strip() for s in args.seeds.split(",") if s.strip()]
    with tempfile.TemporaryDirectory(prefix="receipt-compare-") as tmp:
        tmpdir = Path(tmp)
        trees = {f"old {old_rev[:12]}": export(old_rev, tmpdir / "old")}
        trees[f"new {args.new[:12]}" if args.new else "new (working tree)"] = export(args.new, tmpdir / "new") if args.new else PROJECT
        results: dict[str, dict[str, str]] = {}
        for label, tree in trees.items():
            for seed in seeds:
                key = f"{label}, PYTHONHASHSEED={seed}"
                print(f"  {key}: {len(pairs)} receipts x {1 if args.cold else 2} ...", file=sys.stderr, flush=True)
                cache = None if args.cold else tmpdir / hashlib.sha256(key.encode()).hexdigest()[:8]
                results[key] = receipts(tree, repo, pairs, seed, cache, args.precompute)
    reference_key = next(iter(results))
    reference = results[reference_key]
    bad = 0
    for key, got in results.items():
        differing = sorted(k for k in reference if got.get(k) != reference[k])
        again = sorted(k for k in got if k.startswith("again ") and got[k] != got["first " + k[6:]])
        bad += len(differing) + len(again)
        status = "identical" if not differing and not again else f"{len(differing)} differ from the reference, {len(again)} reruns differ"
        print(f"{key}: {len(got)} receipts, {status}")
        for k in (differing + again)[:10]:
            print(f"    {k}")
    print(f"repository {repo} ({len(pairs)} commit pairs); reference: {reference_key}")
    print("ALL IDENTICAL" if not bad else f"{bad} DIFFERENCES")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
