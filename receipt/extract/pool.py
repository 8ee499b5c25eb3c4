"""Extraction of many files in worker processes, when the machine has cores to spare.

Each worker reads its files' blobs from git (its own `git cat-file`), extracts them, encodes each
file's cache entry and writes it to the cache directory; the parent decodes the entries, in the
listing's order. Decoding is what a warm run does with the same bytes, so the facts, the entries and
their digests are the ones one process makes: the receipt does not depend on how many workers ran
or in which order they finished. Workers are forked (Linux), so they start in milliseconds with the
parent's modules loaded; elsewhere, on one usable core, or for a few files, extraction stays in the
parent. `RECEIPT_WORKERS=N` sets the number of workers (1: none). While it waits for a worker, the
parent extracts files itself (from the end of the list): those need no decoding.

Only data this run computed crosses between processes (JSON text and file names: no pickled
objects from the analysed code), and a file a worker could not do (a missing object, a crash) is
done again by the parent, which then fails or records it exactly as without workers.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from receipt.extract import extract_file
from receipt.extract.cache import encode_entry, store_entry

# Below this many files to extract, starting workers costs more than it saves.
MIN_FILES = 64
_CHUNK = 8  # files per task: fewer round trips, still an even share at the end
_IN_FLIGHT = 4  # tasks submitted ahead per worker

_worker: dict[str, object] = {}


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def worker_count(files: int) -> int:
    """Workers for `files` files: 0 means extract in this process."""
    raw = os.environ.get("RECEIPT_WORKERS", "").strip()
    try:
        wanted = int(raw) if raw else usable_cores()
    except ValueError:
        wanted = usable_cores()
    if wanted < 2 or files < MIN_FILES or sys.platform != "linux" or "fork" not in multiprocessing.get_all_start_methods():
        return 0
    return min(wanted, files // _CHUNK)


def _start(git_dir: str, cache_root: str | None) -> None:
    from receipt.gitsource import GitRepo  # a fresh git reader: the parent's pipes stay the parent's

    _worker["repo"] = GitRepo(git_dir)
    _worker["root"] = Path(cache_root) if cache_root is not None else None


def _extract(job: tuple[str, str]) -> tuple[bytes, str | None] | None:
    """(entry, what store_entry did) for (blob, path), or None: the parent does this file itself."""
    blob, path = job
    try:
        facts = extract_file(path, _worker["repo"].read_blob(blob))  # type: ignore[attr-defined]
        entry = encode_entry(blob, path, facts)
        root = _worker["root"]
        return entry, None if root is None else store_entry(root, blob, path, entry)  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - redone (and reported or raised) by the parent
        return None


def _extract_chunk(jobs: Sequence[tuple[str, str]]) -> list[tuple[bytes, str | None] | None]:
    return [_extract(job) for job in jobs]


def extract_entries(
    git_dir: Path, jobs: Sequence[tuple[str, str]], cache_root: Path | None, workers: int,
    local: Callable[[int], object] | None = None,
) -> Iterator[tuple[bytes, str | None] | None]:
    """For each (blob, path) of `jobs`, in order: (its encoded entry, what `store_entry` did with it
    in `cache_root`), or None when a worker could not do it.

    With `local`, the parent does files itself while the workers it waits for are busy: it calls
    `local(i)` for job `i` (taken from the end of the list, so the workers' share stays in order)
    and yields None for it; `local` leaves the facts where the caller finds them (its memory
    cache). Facts made in the parent need no decoding, which is what the parent otherwise spends
    its time on while workers extract. An exception from `local` leaves that file to the caller."""
    # concurrent.futures, not multiprocessing.Pool: a worker that dies makes the result raise
    # (BrokenProcessPool) instead of waiting forever for its files.
    with ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("fork"), initializer=_start,
        initargs=(str(git_dir), None if cache_root is None else str(cache_root)),
    ) as pool:
        # A few chunks in flight per worker, not all of them (what `map` submits): entries the
        # parent has not decoded yet wait in its memory, and on a busy machine the workers run
        # ahead (all of a 1,500-file tree's entries waiting cost 48 MB of peak RSS).
        starts = range(0, len(jobs), _CHUNK)
        front, back = 0, len(starts)  # chunks [front, back) are nobody's yet
        pending: deque = deque()
        while front < back and len(pending) < workers * _IN_FLIGHT:
            pending.append(pool.submit(_extract_chunk, jobs[starts[front] : starts[front] + _CHUNK]))
            front += 1
        while pending:
            if local is not None and front < back and not pending[0].done():
                back -= 1  # the last chunk nobody has: the parent's
                for i in range(starts[back], min(starts[back] + _CHUNK, len(jobs))):
                    try:
                        local(i)
                    except Exception:  # noqa: BLE001 - redone (and reported or raised) by the caller
                        pass
                continue
            done = pending.popleft().result()
            if front < back:
                pending.append(pool.submit(_extract_chunk, jobs[starts[front] : starts[front] + _CHUNK]))
                front += 1
            yield from done
        for _ in range(min(back * _CHUNK, len(jobs)), len(jobs)):  # what the parent did itself
            yield None
