"""Where a cold receipt's time goes, stage by stage, beside the parse floor of the same run.

    python benchmarks/cold_stages.py                                  # synthetic 1,500 files, HEAD~1 HEAD
    python benchmarks/cold_stages.py --size 5000
    python benchmarks/cold_stages.py --repo /work/.mirror/awslabs+mcp/repo --pair 67a86c331~1..67a86c331

One cold `build_receipt` (empty cache directory) in a fresh child process, its progress lines
stamped with wall seconds and this process's CPU seconds. With two usable cores the head is linked
in a forked child while the base is linked (pipeline.py `_link_aside`): its own CPU seconds are
printed, and the run's critical path in CPU seconds is the parent's (the child runs beside it) when
the child finished before the parent waited for it. On a machine shared with other work, wall
seconds say little: CPU seconds and the critical path are the figures to compare, e.g. against
`RECEIPT_WORKERS=1` (one process: no workers, nothing linked aside).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import PROJECT, git
from bench_trace_diff import FLOOR, SIZES
from generate_repo import ensure_repo

STAGES = r"""
import os, resource, sys, tempfile, time
repo, base, head = sys.argv[1:4]
os.environ["RECEIPT_CACHE_DIR"] = tempfile.mkdtemp(prefix="receipt-cold-stages-")
t0, c0 = time.perf_counter(), time.process_time()
from receipt.extract import pool
from receipt.pipeline import build_receipt

marks, last, child = [], [None], {}

def stamp(msg):
    marks.append((time.perf_counter() - t0, time.process_time() - c0, msg))

def progress(msg):
    key = msg.split(":")[0] + (" files" if msg.endswith("files") else " " + msg.rsplit(" ", 1)[-1])
    if key != last[0]:  # the first line of each phase
        last[0] = key
        stamp(msg)

real = pool.Aside.result

def result(self, patience):
    # The pool's workers are reaped when it shuts down (after this): the difference is the child's.
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    stamp("parent waits for the head's child")
    out = real(self, patience)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    child["cpu"] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    stamp("head's child reaped" + ("" if out is not None else " (failed: head linked here)"))
    return out

pool.Aside.result = result
build_receipt(repo, base, head, progress=progress)
stamp("receipt built")
for wall, cpu, msg in marks:
    print(f"{wall:8.2f} s wall {cpu:7.2f} s CPU   {msg}")
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"parent CPU {me.ru_utime + me.ru_stime:.2f} s, children CPU {kids.ru_utime + kids.ru_stime:.2f} s "
      f"(head's child {child.get('cpu', 0.0):.2f} s); peak RSS parent {me.ru_maxrss / 1024:.0f} MB, largest child {kids.ru_maxrss / 1024:.0f} MB")
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=1500, choices=sorted(SIZES), help="synthetic repository size (default 1500)")
    ap.add_argument("--repo", type=Path, help="a repository instead (work tree or bare git dir)")
    ap.add_argument("--pair", default="HEAD~1..HEAD", help="BASE..HEAD (default HEAD~1..HEAD)")
    args = ap.parse_args()
    repo = args.repo or ensure_repo(SIZES[args.size])
    base, _, head = args.pair.partition("..")
    base_sha, head_sha = git(repo, "rev-parse", base), git(repo, "rev-parse", head)
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    floor = subprocess.run([sys.executable, "-c", FLOOR, str(repo), base_sha, head_sha], capture_output=True, text=True, env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime  # with its git processes
    blobs, _, source, seconds = floor.stdout.split()
    print(f"{repo} {base}..{head}: floor {float(seconds):.2f} s wall, {cpu:.2f} s CPU ({blobs} blobs, {int(source) / 1e6:.1f} MB), "
          f"RECEIPT_WORKERS={os.environ.get('RECEIPT_WORKERS', '(cores)')}, load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-c", STAGES, str(repo), base_sha, head_sha], env=env, cwd=tmp, check=True)


if __name__ == "__main__":
    main()
