"""Facts read back from the cache are the facts extraction makes, file by file and linked.

    python benchmarks/check_cached_facts.py                      # synthetic 1,500 files + every mirror
    python benchmarks/check_cached_facts.py --repo PATH [--rev REV]

For every `.py` file of the tree at REV (default HEAD; every mirror under /work/.mirror and the
synthetic repository unless `--repo` is given): extract it, write its entry to a temporary cache
directory, and read it back twice, as a warm run does (`FactsCache.get`, definitions decoded when
first read) and as a cold run's parent does with a worker's entry (`lazy_entry`). Checked:

- before anything reads a module's definitions, none is decoded, and its header already says what
  linking reads (the eager fields and `index_of`), equal to the fresh facts';
- once read, the facts equal the fresh ones (`==` and `repr`, which renders every expression);
- the linked surface of the whole tree from lazily decoded facts equals the one from fresh facts,
  and how many modules linking decoded.

Asserts nothing silently: prints a line per repository and exits 1 on any difference. Slow on the
large mirrors (minutes): run by hand after changing the codec, not in the test suite.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_repo import Params, ensure_repo

from receipt.extract import extract_file
from receipt.extract.cache import FactsCache, encode_entry, lazy_entry
from receipt.extract.facts import EAGER, LazyModuleFacts, index_of
from receipt.gitsource import GitRepo
from receipt.pipeline import surface_from_facts

MIRRORS = Path("/work/.mirror")


def check(repo_dir: Path, rev: str) -> list[str]:
    repo = GitRepo(repo_dir)
    sha = repo.resolve(rev)
    files = [f for f in repo.list_files(sha).files if f.path.endswith(".py")]
    problems: list[str] = []
    fresh_all, warm_all, cold_all = [], [], []
    with tempfile.TemporaryDirectory(prefix="check-cached-facts-") as tmp:
        writer = FactsCache(Path(tmp))
        warm = FactsCache(Path(tmp))
        cold = FactsCache(Path(tmp))
        for f in files:
            fresh = extract_file(f.path, repo.read_blob(f.blob))
            entry = encode_entry(f.blob, f.path, fresh)
            writer.put(f.blob, f.path, fresh, entry=entry)
            for label, got in (("warm", warm.get(f.blob, f.path)), ("cold", lazy_entry(entry, f.blob, f.path, cold))):
                if not isinstance(got, LazyModuleFacts) or not got.pending:
                    problems.append(f"{f.path}: {label} read is not lazy")
                    continue
                if any(getattr(got, k) != getattr(fresh, k) for k in EAGER) or index_of(got) != index_of(fresh):
                    problems.append(f"{f.path}: {label} header differs from the fresh facts")
            fresh_all.append(fresh)
            warm_all.append(warm.get(f.blob, f.path))
            cold_all.append(cold._memory.get((f.blob, f.path)) or lazy_entry(entry, f.blob, f.path, cold))
        linkable = lambda facts: [m for m in facts if not m.error]  # noqa: E731 - as the pipeline links
        surface_fresh, _ = surface_from_facts(linkable(fresh_all), rev="r", sha="0" * 40)
        surface_warm, _ = surface_from_facts(linkable(warm_all), rev="r", sha="0" * 40)
        linked_decoded = warm.decoded
        if surface_warm.model_dump(mode="json") != surface_fresh.model_dump(mode="json"):
            problems.append("linked surface from cached facts differs from the fresh one")
        for fresh, got_warm, got_cold in zip(fresh_all, warm_all, cold_all):
            for label, got in (("warm", got_warm), ("cold", got_cold)):
                if got != fresh or repr(got) != repr(fresh):
                    problems.append(f"{fresh.path}: {label} decoded facts differ from the fresh ones")
    print(f"{repo_dir} {rev}: {len(files)} files, linking decoded {linked_decoded} of {len(files)} modules, "
          f"{len(surface_fresh.entries())} surface entries; {'OK' if not problems else f'{len(problems)} DIFFERENCES'}", flush=True)
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", type=Path, action="append", help="a repository (repeatable); default: synthetic + every mirror")
    ap.add_argument("--rev", default="HEAD")
    args = ap.parse_args(argv)
    repos = args.repo or [
        ensure_repo(Params(files=1500, agents=90, commits=50, others=60)),
        *sorted(p / "repo" for p in MIRRORS.glob("*+*") if (p / "repo").exists()),
    ]
    gc.disable()  # as a run (receipt.extract.gc_quiet_run); facts hold no cycles
    problems: list[str] = []
    for r in repos:
        problems += check(r, args.rev)
    for p in problems[:50]:
        print("  ", p)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
