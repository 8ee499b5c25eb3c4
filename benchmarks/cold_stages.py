"""Where a cold receipt's time goes, stage by stage, beside the parse floor of the same run.

    python benchmarks/cold_stages.py                                  # synthetic 1,500 files, HEAD~1 HEAD
    python benchmarks/cold_stages.py --size 5000
    python benchmarks/cold_stages.py --repo /work/.mirror/awslabs+mcp/repo --pair 67a86c331~1..67a86c331

One cold `build_receipt` (empty cache directory) in a fresh child process, its progress lines
stamped with wall seconds and this process's CPU seconds. With two usable cores the head is linked
in a forked child while the base is linked (pipeline.py `_link_aside`), and a rerun's files that
differ are checked in another (extract/forked.py `aside`): each such child's own CPU seconds and
peak RSS are printed (measured inside it: it ends with `os._exit`). Children CPU is everything the
run's descendants used: the extraction workers, git, the children aside.

Memory: while the head's child links beside the base, the machine holds both processes. Each one's
RSS counts the pages they share (forked, copy-on-write) in full, so the sum of PSS over the run's
process tree (a shared page counts 1/n in each of its n processes), sampled from
/proc/<pid>/smaps_rollup every 20 ms, is printed as well: its peak is what the run holds.

On a machine shared with other work, wall seconds say little: CPU seconds are the figures to
compare, e.g. against `RECEIPT_WORKERS=1` (one process: no workers, nothing linked aside).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import PROJECT, git
from bench_trace_diff import FLOOR, SIZES
from generate_repo import ensure_repo

STAGES = r"""
import json, os, resource, sys, tempfile, time
repo, base, head = sys.argv[1:4]
os.environ["RECEIPT_CACHE_DIR"] = tempfile.mkdtemp(prefix="receipt-cold-stages-")
t0, c0 = time.perf_counter(), time.process_time()
from receipt.extract import forked
from receipt.pipeline import build_receipt

marks, last = [], [None]

def stamp(msg):
    marks.append((time.perf_counter() - t0, time.process_time() - c0, msg))

def progress(msg):
    key = msg.split(":")[0] + (" files" if msg.endswith("files") else " " + msg.rsplit(" ", 1)[-1])
    if key != last[0]:  # the first line of each phase
        last[0] = key
        stamp(msg)

real = forked.Aside.result

def result(self, patience):
    stamp("parent waits for a child working aside")
    out = real(self, patience)
    stamp("child reaped" + ("" if out is not None else " (failed: its work is done here)"))
    return out

forked.Aside.result = result
real_aside = forked.aside
report = tempfile.mkdtemp(prefix="receipt-cold-stages-aside-")

def aside(work):
    # The child's own CPU seconds, from inside it (it ends with os._exit: nothing else would say).
    def timed():
        c = time.process_time()
        try:
            return work()
        finally:
            with open(os.path.join(report, str(os.getpid())), "w") as f:
                f.write(f"{time.process_time() - c} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}")
    return real_aside(timed)

forked.aside = aside

# The linking of each revision by part, CPU seconds of the process doing it (the parent, or the
# child linking the head aside: inherited through the fork, reported in its file).
from receipt import link as link_module, pipeline
from receipt.dialects import registry
from receipt.extract import program as program_module

linking = {}  # revision -> {part: CPU s}
current = [None]

def timer(owner, attr, label):
    original = getattr(owner, attr)
    def timed(*args, **kwargs):
        c = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            part = linking.setdefault(current[0], {})
            part[label(args, kwargs)] = part.get(label(args, kwargs), 0.0) + time.process_time() - c
    setattr(owner, attr, timed)

def surface(*args, **kwargs):
    current[0] = kwargs.get("rev")
    return surface_from_facts(*args, **kwargs)

surface_from_facts = pipeline.surface_from_facts
timer(program_module.Program, "__init__", lambda a, k: "Program")
for d in registry.dialects():
    timer(d, "extract", lambda a, k, name=d.NAME: name)
timer(link_module, "link", lambda a, k: "link")
pipeline.surface_from_facts = surface
timer(pipeline, "surface_from_facts", lambda a, k: "surface_from_facts (all)")

def link_lines(who, parts):
    for rev, part in parts.items():
        dialects = sorted(((v, k) for k, v in part.items() if k not in ("Program", "link", "surface_from_facts (all)")), reverse=True)
        print(f"linking {rev[:12]} ({who}): {part.get('surface_from_facts (all)', 0):.2f} s CPU = Program {part.get('Program', 0):.2f} + "
              f"dialects {sum(v for v, _ in dialects):.2f} ({', '.join(f'{k} {v:.2f}' for v, k in dialects if v >= 0.005)}) + link {part.get('link', 0):.2f}")

real_work = aside
def aside(work):
    def reported():
        linking.clear()  # what the parent had measured before the fork is the parent's to print
        try:
            return work()
        finally:
            with open(os.path.join(report, f"link-{os.getpid()}"), "w") as f:
                f.write(json.dumps(linking))
    return real_work(reported)

forked.aside = aside
build_receipt(repo, base, head, progress=progress)
stamp("receipt built")
for wall, cpu, msg in marks:
    print(f"{wall:8.2f} s wall {cpu:7.2f} s CPU   {msg}")
for name in sorted(os.listdir(report)):
    if name.startswith("link-"):
        link_lines(f"child {name[5:]}", {k: v for k, v in json.load(open(os.path.join(report, name))).items() if k != str(None)})
        continue
    cpu, rss = open(os.path.join(report, name)).read().split()
    print(f"aside child {name}: {float(cpu):.2f} s CPU of its work, peak RSS {int(rss) / 1024:.0f} MB")
link_lines("parent", {k: v for k, v in linking.items() if k is not None})
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"parent CPU {me.ru_utime + me.ru_stime:.2f} s, children CPU {kids.ru_utime + kids.ru_stime:.2f} s "
      f"(workers, git, children aside); peak RSS parent {me.ru_maxrss / 1024:.0f} MB, largest child {kids.ru_maxrss / 1024:.0f} MB")
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
        proc = subprocess.Popen([sys.executable, "-c", STAGES, str(repo), base_sha, head_sha], env=env, cwd=tmp)
        peak = PssPeak(proc.pid)
        peak.start()
        code = proc.wait()
        peak.stop.set()
        peak.join()
        if code:
            raise SystemExit(code)
    print(f"summed PSS of the receipt's processes (sampled every {PssPeak.EVERY * 1000:.0f} ms): peak {peak.summed / 1e6:.0f} MB "
          f"({peak.count} processes then: {', '.join(f'{size / 1e6:.0f}' for size, _ in peak.parts)} MB), "
          f"largest single process {peak.single / 1e6:.0f} MB")


class PssPeak(threading.Thread):
    """The largest sum of PSS (proportional set size: a page shared by n processes counts 1/n in
    each) over a process and its descendants, sampled: what the machine holds for the run, where
    the RSS of each forked process would count the pages they share once per process."""

    EVERY = 0.02

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.stop = pid, threading.Event()
        self.summed = self.single = 0
        self.count = 0
        self.parts: list[tuple[int, int]] = []  # (PSS, pid) of each process at the peak

    def tree(self) -> list[int]:
        parents: dict[int, int] = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    with open(f"/proc/{name}/stat") as f:
                        parents[int(name)] = int(f.read().rsplit(")", 1)[1].split()[1])
                except (OSError, IndexError, ValueError):
                    pass
        out, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            out.append(pid)
            todo.extend(p for p, pp in parents.items() if pp == pid)
        return out

    @staticmethod
    def pss(pid: int) -> int:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            pass
        return 0

    def run(self) -> None:
        while not self.stop.wait(self.EVERY):
            pids = self.tree()
            sizes = [self.pss(pid) for pid in pids]
            if sum(sizes) > self.summed:
                self.summed, self.count = sum(sizes), sum(1 for x in sizes if x)
                self.parts = sorted(((s, pid) for s, pid in zip(sizes, pids) if s), reverse=True)
            self.single = max(self.single, *sizes, 0)


if __name__ == "__main__":
    main()
