"""`trace-diff` end to end, every figure beside the parse floor measured in the same run.

    python benchmarks/bench_trace_diff.py                              # synthetic 500 / 1,500 / 5,000 files
    python benchmarks/bench_trace_diff.py --sizes 1500 --repeat 5
    python benchmarks/bench_trace_diff.py --sizes none --repo /work/.mirror/awslabs+mcp/repo
    python benchmarks/bench_trace_diff.py --sizes none --repo R --pair BASE..HEAD --paths src/x src/y
    python benchmarks/bench_trace_diff.py --sizes none --repo R --pair BASE..HEAD --griffe src/pkg:pkg --clock cpu

The machine is shared, so absolute seconds drift from run to run; the ratio to the floor measured
moments before, on the same repository and revisions, is the figure to compare. Per repository,
each figure is the median of `--repeat` runs, every run a fresh child process (its peak RSS from
`os.wait4` is its own):

- floor: one process reads every `.py` blob of both revisions from git (`git cat-file --batch`, each
  distinct blob once) and `ast.parse`s it. What any tool that reads the code must at least pay.
- cold: `trace-diff BASE HEAD --output F` with an empty cache (`RECEIPT_CACHE_DIR` = new directory);
- rerun: the same command again with the cache the cold run left (both revisions seen before);
- incremental: an empty cache, then `receipt surface BASE` (untimed: the base computed before, as
  the default branch's push would), then the timed `trace-diff BASE HEAD`;
- RSS: the largest peak resident set of those trace-diff runs; cache: bytes in the cache directory
  after the cold run, over the bytes of the distinct `.py` blobs it describes;
- start-up: `trace-diff --help` (interpreter start-up, imports, argument parsing; median of
  max(5, `--repeat`) runs);
- the project's modules are byte-compiled first, as an installed package is;
- `--clock cpu`: CPU seconds (user + system of the process and the children it waited for) instead
  of wall seconds, steadier when other work shares the machine.

With two synthetic sizes or more, a growth check follows the table: milliseconds per Python file at
each size and the exponent k of time ~ size^k (least squares on logs), against files and against
source bytes (the generated files grow longer with the repository); k vs bytes <= 1.1 reads "linear
or better". The floor's own k is the yardstick for what machine noise does to a linear algorithm.

The CLI is the real console script (interpreter start-up and imports included): the figure a user
sees. BASE/HEAD: `HEAD~1 HEAD` on the synthetic repositories (the last commit changes <= 8 files);
on `--repo` the newest first-parent commit that changes 1-10 Python files, against its parent
(or `--pair BASE..HEAD`; `--paths` limits both the floor and trace-diff to those files or folders).
Every run's receipt is compared with the cold one ("same receipt": no if any run's output differed).
"""

from __future__ import annotations

import argparse
import math
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
from generate_repo import Params, ensure_repo

SIZES = {500: Params(files=500, agents=30, commits=50, others=20), 1500: Params(files=1500, agents=90, commits=50, others=60), 5000: Params()}

FLOOR = r"""
import ast, subprocess, sys, threading, time
repo, revs, paths = sys.argv[1], sys.argv[2:4], sys.argv[4:]
t0 = time.perf_counter()
blobs = {}
for rev in revs:
    out = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "-z", "--full-tree", rev, "--", *paths], capture_output=True, check=True).stdout
    for rec in out.split(b"\0"):
        if rec:
            meta, _, path = rec.partition(b"\t")
            mode, kind, oid = meta.split()
            if kind == b"blob" and path.endswith(b".py") and mode != b"120000":
                blobs[oid] = path
cat = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

def feed():  # from a thread: writing every oid before reading would fill both pipes and deadlock
    cat.stdin.write(b"".join(oid + b"\n" for oid in blobs))
    cat.stdin.close()

writer = threading.Thread(target=feed)
writer.start()
total = parsed = 0
for _ in blobs:
    header = cat.stdout.readline().split()
    data = cat.stdout.read(int(header[2]))
    cat.stdout.read(1)
    total += len(data)
    try:
        ast.parse(data)
        parsed += 1
    except (SyntaxError, ValueError):
        pass
writer.join()
cat.wait()
print(len(blobs), parsed, total, time.perf_counter() - t0)
"""


@dataclass
class Run:
    seconds: float  # on the clock chosen with --clock
    rss_mb: float
    output: bytes


CLOCK = "wall"  # or "cpu": user + system time of the process and the children it waited for (git)


LAUNCHER = """
import os, subprocess, sys, time
t0 = time.perf_counter()
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
wall = time.perf_counter() - t0
with open(sys.argv[1], "w") as f:
    f.write(f"{proc.returncode} {wall} {usage.ru_utime} {usage.ru_stime} {usage.ru_maxrss}")
"""


def spawn(cmd: list[str], cache: Path | None, out_file: Path | None = None, cwd: Path | None = None) -> Run:
    env = {**os.environ, "PYTHONPATH": str(PROJECT), "RECEIPT_CACHE_DIR": str(cache) if cache else ""}
    env.pop("GITHUB_ACTIONS", None)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        with tempfile.NamedTemporaryFile("r") as figures:
            # Measured from a small launcher, not from here: Linux keeps the high-water RSS of the
            # memory a process had before exec, and a child spawned from this process (which holds
            # generated repositories) would report this process's peak as its own.
            launcher = subprocess.run([sys.executable, "-c", LAUNCHER, figures.name, *cmd], stdout=out, stderr=err, env=env, cwd=cwd)
            if launcher.returncode != 0 or not (line := figures.read().split()):
                err.seek(0)
                raise SystemExit(f"{' '.join(cmd)}: launcher failed:\n{err.read().decode(errors='replace')}")
        code, wall, utime, stime, maxrss = int(line[0]), float(line[1]), float(line[2]), float(line[3]), int(line[4])
        if code not in (0, 1):  # 1 = findings at or above --fail-on
            err.seek(0)
            raise SystemExit(f"{' '.join(cmd)} exited {code}:\n{err.read().decode(errors='replace')}")
        out.seek(0)
        text = out_file.read_bytes() if out_file else out.read()
    seconds = wall if CLOCK == "wall" else utime + stime
    return Run(seconds, maxrss / 1024, text)


def cli(name: str) -> list[str]:
    script = Path(sys.executable).with_name(name)
    return [str(script)] if script.exists() else [sys.executable, "-m", "receipt", *([] if name == "receipt" else [name])]


def dir_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def pick_pair(repo: Path, paths: list[str]) -> tuple[str, str]:
    """The newest first-parent commit changing 1-10 Python files (under `paths`), and its parent."""
    for sha in git(repo, "log", "--first-parent", "--format=%H", "-n", "300", "--", *paths).split():
        try:
            names = [n for n in git(repo, "diff", "--name-only", f"{sha}~1", sha, "--", *paths).split() if n.endswith(".py")]
        except subprocess.CalledProcessError:
            continue
        if 1 <= len(names) <= 10:
            return f"{sha}~1", sha
    raise SystemExit(f"{repo}: no first-parent commit changes 1-10 Python files; give --pair")


@dataclass
class Figures:
    label: str
    files: int  # .py files at HEAD (what "per file" divides by)
    blobs: int  # distinct .py blobs over both revisions (what the floor parses)
    changed: int
    source: int  # bytes of those blobs
    floor: float
    cold: float
    rerun: float
    incremental: float
    startup: float
    rss_mb: float
    cache_bytes: float
    same: bool


def bench(label: str, repo: Path, base: str, head: str, paths: list[str], repeat: int) -> Figures:
    base_sha, head_sha = git(repo, "rev-parse", base), git(repo, "rev-parse", head)
    changed = len([n for n in git(repo, "diff", "--name-only", base_sha, head_sha, "--", *paths).split() if n.endswith(".py")])
    files = len([n for n in git(repo, "ls-tree", "-r", "--name-only", "--full-tree", head_sha, "--", *paths).split("\n") if n.endswith(".py")])
    floors, colds, reruns, incs, rss, cache_bytes = [], [], [], [], [], []
    blobs = source = 0
    same = True
    for i in range(repeat):
        floor = spawn([sys.executable, "-c", FLOOR, str(repo), base_sha, head_sha, *paths], None)
        blobs, _parsed, source, _inner = floor.output.split()
        blobs, source = int(blobs), int(source)
        floors.append(floor.seconds)
        tmp = Path(tempfile.mkdtemp(prefix="receipt-bench-"))
        try:
            out = tmp / "receipt.md"
            cmd = [*cli("trace-diff"), base_sha, head_sha, *paths, "--repo", str(repo), "--output", str(out)]
            cold = spawn(cmd, tmp / "cache", out)
            cache_bytes.append(dir_bytes(tmp / "cache"))
            rerun = spawn(cmd, tmp / "cache", out)
            shutil.rmtree(tmp / "cache")
            spawn([*cli("receipt"), "surface", base_sha, *paths, "--repo", str(repo), "--format", "json", "--output", str(tmp / "s.json")], tmp / "cache")
            inc = spawn(cmd, tmp / "cache", out)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        same = same and cold.output == rerun.output == inc.output
        colds.append(cold.seconds)
        reruns.append(rerun.seconds)
        incs.append(inc.seconds)
        rss += [cold.rss_mb, rerun.rss_mb, inc.rss_mb]
        print(
            f"  {label} run {i + 1}/{repeat}: floor {floor.seconds:.2f} s, cold {cold.seconds:.2f} s, rerun {rerun.seconds:.2f} s, "
            f"incremental {inc.seconds:.2f} s, peak RSS {max(cold.rss_mb, rerun.rss_mb, inc.rss_mb):.0f} MB",
            file=sys.stderr,
            flush=True,
        )
    return Figures(
        label, files, blobs, changed, source, median(floors), median(colds), median(reruns), median(incs),
        startup_seconds(repeat), max(rss), median(cache_bytes), same,
    )


def startup_seconds(repeat: int) -> float:
    """`trace-diff --help`: interpreter start-up, imports and argument parsing, nothing read."""
    return median([spawn([*cli("trace-diff"), "--help"], None).seconds for _ in range(max(5, repeat))])


def row(f: Figures) -> list[object]:
    def cell(seconds: float) -> str:
        return f"{seconds:.2f} s ({seconds / f.floor:.2f}x)"

    return [
        f.label,
        f"{f.files:,} / {f.changed}",
        f"{f.source / 1e6:.1f} MB",
        f"{f.floor:.2f} s",
        cell(f.cold),
        cell(f.rerun),
        cell(f.incremental),
        f"{f.rss_mb:.0f} MB",
        f"{f.cache_bytes / 1e6:.1f} MB ({f.cache_bytes / f.source:.2f}x)",
        cell(f.startup),
        "yes" if f.same else "NO",
    ]


HEADERS = ["repository", ".py files / changed", "source", "floor", "cold", "identical rerun", "incremental", "peak RSS", "cache (x source)", "start-up", "same receipt"]
GROWTH = ("floor", "cold", "rerun", "incremental")


def exponent(points: list[tuple[int, float]]) -> float:
    """k in time ~ files^k, least squares over log(files), log(time)."""
    xs, ys = [math.log(n) for n, _ in points], [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def growth(results: list[Figures]) -> str:
    """Per-file cost across the synthetic sizes: linear or better means it does not grow with the tree.

    The generator's files grow longer with the repository (bytes per file are not constant), so k is
    also fitted against the source bytes; the verdict reads that one, with the floor's own k beside it
    as the yardstick of what the machine's noise and the bytes do to a linear algorithm.
    """
    headers = ["figure", *[f"ms/file at {f.files:,}" for f in results], "k vs files", "k vs bytes", "growth"]
    rows = []
    for name in GROWTH:
        k_files = exponent([(f.files, getattr(f, name)) for f in results])
        k_bytes = exponent([(f.source, getattr(f, name)) for f in results])
        verdict = "linear or better" if k_bytes <= 1.1 else "WORSE THAN LINEAR"
        per_file = [f"{1000 * getattr(f, name) / f.files:.2f}" for f in results]
        rows.append([name, *per_file, f"{k_files:.2f}", f"{k_bytes:.2f}", verdict])
    return table(headers, rows)


def griffe_comparison(repo: Path, base: str, head: str, spec: str, repeat: int) -> list[object]:
    """`griffe check` (API breakage between two refs) against a cold `trace-diff` on the same package.

    griffe reads refs through `git worktree add`, so it runs in a throwaway `--shared` clone (the
    repository itself may be a bare mirror); trace-diff reads the same repository's objects, limited
    to the package's folder, with an empty cache each time.
    """
    search, _, package = spec.partition(":")
    griffe = Path(sys.executable).with_name("griffe")
    if not griffe.exists():
        raise SystemExit("--griffe needs griffe in this venv: pip install griffe")
    base_sha, head_sha = git(repo, "rev-parse", base), git(repo, "rev-parse", head)
    griffes, ours = [], []
    with tempfile.TemporaryDirectory(prefix="receipt-griffe-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(repo), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "-q", head_sha], check=True)
        for i in range(repeat):
            griffes.append(spawn([str(griffe), "check", "-s", search, "-a", base_sha, "-b", head_sha, package], None, cwd=clone).seconds)
            cache = Path(tmp) / f"cache{i}"
            cmd = [*cli("trace-diff"), base_sha, head_sha, search, "--repo", str(repo), "--output", str(Path(tmp) / "r.md")]
            ours.append(spawn(cmd, cache, Path(tmp) / "r.md").seconds)
            print(f"  griffe {package} run {i + 1}/{repeat}: griffe check {griffes[-1]:.2f} s, trace-diff {ours[-1]:.2f} s", file=sys.stderr, flush=True)
    g, t = median(griffes), median(ours)
    files = len([n for n in git(repo, "ls-tree", "-r", "--name-only", "--full-tree", head_sha, "--", search).split("\n") if n.endswith(".py")])
    return [f"{package} ({files} .py files)", f"{base_sha[:9]}..{head_sha[:9]}", f"{g:.2f} s", f"{t:.2f} s", f"{g / t:.1f}x"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="500,1500,5000", help="synthetic repository sizes (Python files), comma-separated, or 'none'")
    ap.add_argument("--repo", type=Path, action="append", default=[], help="also benchmark this repository (work tree or bare git dir); repeatable")
    ap.add_argument("--pair", default="", help="BASE..HEAD for --repo (default: newest commit changing 1-10 Python files)")
    ap.add_argument("--paths", nargs="*", default=[], help="for --repo: limit floor and trace-diff to these files or folders")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure, median printed (default 3)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="wall seconds (default), or CPU seconds (user + system, with waited-for git children): steadier on a loaded machine")
    ap.add_argument("--griffe", metavar="SEARCH:PACKAGE", help="for --repo: also time `griffe check PACKAGE -s SEARCH` against trace-diff on SEARCH")
    args = ap.parse_args(argv)
    global CLOCK
    CLOCK = args.clock

    # An installed package has its bytecode (pip compiles it); without it, every timed run would
    # also compile the project's modules (PYTHONDONTWRITEBYTECODE stops Python caching them itself).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(PROJECT / "receipt")], check=True, stdout=subprocess.DEVNULL)
    targets: list[tuple[str, Path, str, str, list[str]]] = []
    for size in [s for s in args.sizes.split(",") if s.strip() and s != "none"]:
        p = SIZES.get(int(size)) or Params(files=int(size), agents=max(10, int(size) * 6 // 100), others=int(size) // 25)
        targets.append((f"synthetic {int(size):,}", ensure_repo(p, quiet=True), "HEAD~1", "HEAD", []))
    for repo in args.repo:
        base, head = args.pair.split("..", 1) if args.pair else pick_pair(repo, args.paths)
        name = repo.name if repo.name != "repo" else repo.parent.name
        targets.append((name + (f" ({' '.join(args.paths)})" if args.paths else ""), repo, base, head, args.paths))

    print("# trace-diff against the parse floor\n")
    print(f"behavior-receipt {project_commit()} · {machine()} · load average at start {os.getloadavg()[0]:.1f}")
    print(f"{args.repeat} run(s) per figure, median shown; {CLOCK} seconds; (Nx) = times the floor of the same run\n")
    results = [bench(label, repo, base, head, paths, args.repeat) for label, repo, base, head, paths in targets]
    print(table(HEADERS, [row(f) for f in results]))
    synthetic = [f for f in results if f.label.startswith("synthetic")]
    if len(synthetic) >= 2:
        print("\n## Growth across sizes\n")
        print(growth(synthetic))
    if args.griffe:
        comparison = [griffe_comparison(repo, base, head, args.griffe, args.repeat) for _label, repo, base, head, _paths in targets if repo in args.repo]
        print("\n## One package: griffe check against trace-diff (cold)\n")
        print(table(["package", "revisions", "griffe check", "trace-diff", "trace-diff faster by"], comparison))
    print(f"\nload average at end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
