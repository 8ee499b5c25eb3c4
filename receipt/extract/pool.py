"""Extraction of many files in worker processes, when the machine has cores to spare.

Each worker reads its files' blobs from git (its own `git cat-file`, a chunk's blobs in one round
trip), extracts them, encodes each file's cache entry and writes it to the cache directory; the
parent decodes the entries, in the listing's order. Decoding is what a warm run does with the same
bytes, so the facts, the entries and their digests are the ones one process makes: the receipt does
not depend on how many workers ran or in which order they finished. Workers are forked (Linux), so
they start in milliseconds with the parent's modules loaded; elsewhere, on one usable core, or for a
few files, extraction stays in the parent. `RECEIPT_WORKERS=N` sets the number of workers (1: none).
While it waits for a worker, the parent extracts files itself (from the end of the list): those
need no decoding.

Writing entries to the cache directory (creating a file each) waits until extraction is over: each
worker keeps its entries compressed as their files hold them (up to `_KEEP_BYTES`), and those the
parent extracts itself are handed to a worker as they are made; each worker writes what it holds
when told to (`Writes.start`): when the last file is extracted, or, with `defer`, when the caller
says (pipeline.HOLD_WRITES, off until measured on an idle machine: a receipt would start them once
the base is linked, so that the base's link and the head's, one process each, have the two cores to
themselves). The parent waits for those writes before the cache's bound is enforced
(`FactsCache.settle`).

Only data this run computed crosses between processes (JSON text, compressed as the cache files
hold it when there is a cache directory, its sha256 and file names: no pickled objects from the
analysed code), and a file a worker could not do (a missing object, a crash) is done again by the
parent, which then fails or records it exactly as without workers.

What crosses goes through the pool's threads in the parent, which need the parent's GIL while it
extracts and decodes: measured at 1,500 files, a worker waited 0.3 s for the parent to read its
uncompressed entries (a pipe holds 64 KB, a chunk's entries 200 KB) and 0.77 s in all between its
chunks; with entries compressed (the fifth of the bytes) and the parent's own entries handed over one
task per chunk, not per file, 0.02 s and 0.07-0.16 s.
"""

from __future__ import annotations

import hashlib
import multiprocessing
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from receipt.extract import extract_file
from receipt.extract.cache import encode_entry, pack, store_packed, unpack
from receipt.extract.forked import FILES_PER_TASK as _CHUNK

# What a worker says of an entry it keeps to write later (see _write_kept): not written yet.
KEPT = "kept"

_IN_FLIGHT = 4  # tasks submitted ahead per worker

# Bytes of compressed entries a worker keeps to write once extraction is over; past this it writes
# at once (the whole of a 5,000-file tree's entries is about 150 MB, 30 MB compressed).
_KEEP_BYTES = 16_000_000
_SETTLE_SECONDS = 120  # a worker waiting for the others to take their share of the writes

_worker: dict[str, object] = {}


def _start(git_dir: str, cache_root: str | None, barrier: object) -> None:
    from receipt.gitsource import GitRepo  # a fresh git reader: the parent's pipes stay the parent's

    _worker["repo"] = GitRepo(git_dir)
    _worker["root"] = Path(cache_root) if cache_root is not None else None
    _worker["barrier"] = barrier
    _worker["kept"] = []
    _worker["kept_bytes"] = 0


def _store_later(blob: str, path: str, packed: bytes) -> str:
    """What store_packed did with the (compressed) entry, or KEPT: it is written by `_write_kept`."""
    if _worker["kept_bytes"] > _KEEP_BYTES:  # type: ignore[operator]
        return store_packed(_worker["root"], blob, path, packed)  # type: ignore[arg-type]
    _worker["kept"].append((blob, path, packed))  # type: ignore[attr-defined]
    _worker["kept_bytes"] += len(packed)  # type: ignore[operator]
    return KEPT


def _store_chunk(entries: Sequence[tuple[str, str, bytes]]) -> int:
    """Keep (or write) the parent's entries of one of its chunks; how many files were written."""
    return sum(_store_later(blob, path, pack(entry)) == "written" for blob, path, entry in entries)


def _write_kept() -> int:
    """Write the entries this worker kept; how many files were written. Each worker takes exactly
    one of these tasks: it waits here until every worker has taken its own."""
    root = _worker["root"]
    kept = _worker["kept"]
    written = 0
    try:
        for blob, path, packed in kept:  # type: ignore[attr-defined]
            written += store_packed(root, blob, path, packed) == "written"  # type: ignore[arg-type]
    finally:
        kept.clear()  # type: ignore[attr-defined]
        _worker["barrier"].wait(_SETTLE_SECONDS)  # type: ignore[attr-defined]
    return written


def _extract(job: tuple[str, str], data: bytes) -> tuple[bytes, str | None, str] | None:
    """(entry, what store_packed did, sha256 of the entry) for (blob, path) whose blob holds `data`,
    or None: the parent does this file itself. With a cache directory the entry goes back compressed
    as its file holds it (made anyway, to be kept): a fifth of the bytes through the pipe the
    parent's pool thread reads."""
    blob, path = job
    try:
        entry = encode_entry(blob, path, extract_file(path, data))
        digest = hashlib.sha256(entry).hexdigest()
        if _worker["root"] is None:
            return entry, None, digest
        packed = pack(entry)
        return packed, _store_later(blob, path, packed), digest
    except Exception:  # noqa: BLE001 - redone (and reported or raised) by the parent
        return None


def _extract_chunk(jobs: Sequence[tuple[str, str]]) -> list[tuple[bytes, str | None, str] | None]:
    blobs = _read_blobs([blob for blob, _ in jobs])
    return [None if data is None else _extract(job, data) for job, data in zip(jobs, blobs)]


def _read_blobs(oids: list[str]) -> list[bytes | None]:
    """The blobs of a chunk, asked of the worker's `git cat-file` in one round trip: one at a time,
    the worker waited for git to be scheduled once per file (a third process on two cores). Any
    blob not read so is read alone (a missing one then fails in the parent, as without workers)."""
    repo = _worker["repo"]
    got: list[bytes | None] = [None] * len(oids)
    try:
        got = repo.read_blobs(oids)  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - read one by one below
        pass
    for i, data in enumerate(got):
        if data is None:
            try:
                got[i] = repo.read_blob(oids[i])  # type: ignore[attr-defined]
            except Exception:  # noqa: BLE001 - the parent does this file
                pass
    return got


class Writes:
    """The writes of the entries a pool's workers kept (see `_write_kept`): started once, by
    `start` or by waiting for them (calling this object returns how many files they created)."""

    def __init__(self, pool: ProcessPoolExecutor, workers: int, cache_root: Path | None, kept: list) -> None:
        self.pool, self.workers, self.cache_root, self.kept = pool, workers, cache_root, kept
        self.writes: list | None = None

    def start(self) -> None:
        """Every worker writes what it kept (one task each: see _write_kept), while the caller goes on."""
        if self.writes is None:
            self.writes = [self.pool.submit(_write_kept) for _ in range(self.workers)] if self.cache_root is not None else []
            self.pool.shutdown(wait=False)  # the workers exit once their writes are done

    def __call__(self) -> int:
        written = 0
        try:
            self.start()
        except Exception:  # noqa: BLE001 - a broken pool: its entries are not written, the cache only accelerates
            self.writes = []
        for future in [*self.kept, *(self.writes or [])]:
            try:
                done = future.result()
                written += done if type(done) is int else done == "written"
            except Exception:  # noqa: BLE001 - an entry not written: the cache only accelerates
                pass
        self.pool.shutdown(wait=True)  # its threads gone: the next pool forks a one-thread process
        return written


def extract_entries(
    git_dir: Path, jobs: Sequence[tuple[str, str]], cache_root: Path | None, workers: int,
    local: Callable[[int], bytes | None] | None = None, later: list[Callable[[], int]] | None = None,
    defer: bool = False,
) -> Iterator[tuple[bytes, str | None, str] | None]:
    """For each (blob, path) of `jobs`, in order: (its encoded entry, what `store_packed` did with it
    in `cache_root`: KEPT when it is written later, the entry's sha256), or None when a worker could
    not do it.

    With `local`, the parent does files itself while the workers it waits for are busy: it calls
    `local(i)` for job `i` (taken from the end of the list, so the workers' share stays in order)
    and yields None for it; `local` leaves the facts where the caller finds them (its memory
    cache) and returns their entry when it is still to be written (a worker keeps it with its
    own). Facts made in the parent need no decoding, which is what the parent otherwise spends
    its time on while workers extract. An exception from `local` leaves that file to the caller.

    The kept entries are written once the last file is extracted, while the caller goes on; the
    `Writes` that waits for them and returns how many files they created is appended to `later`
    (without `later`, they are waited for here). With `defer` (and `later`), the writes wait until
    the caller starts them (`Writes.start`, `FactsCache.flush`) or waits for them."""
    context = multiprocessing.get_context("fork")
    # concurrent.futures, not multiprocessing.Pool: a worker that dies makes the result raise
    # (BrokenProcessPool) instead of waiting forever for its files.
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_start,
        initargs=(str(git_dir), None if cache_root is None else str(cache_root), context.Barrier(workers)),
    )
    handed_over = False
    try:
        # A few chunks in flight per worker, not all of them (what `map` submits): entries the
        # parent has not decoded yet wait in its memory, and on a busy machine the workers run
        # ahead (all of a 1,500-file tree's entries waiting cost 48 MB of peak RSS).
        starts = range(0, len(jobs), _CHUNK)
        front, back = 0, len(starts)  # chunks [front, back) are nobody's yet
        pending: deque = deque()
        kept: list = []  # the parent's entries handed to workers
        while front < back and len(pending) < workers * _IN_FLIGHT:
            pending.append(pool.submit(_extract_chunk, jobs[starts[front] : starts[front] + _CHUNK]))
            front += 1
        while pending:
            if local is not None and front < back and not pending[0].done():
                back -= 1  # the last chunk nobody has: the parent's
                mine: list[tuple[str, str, bytes]] = []
                for i in range(starts[back], min(starts[back] + _CHUNK, len(jobs))):
                    try:
                        entry = local(i)
                    except Exception:  # noqa: BLE001 - redone (and reported or raised) by the caller
                        continue
                    if entry is not None and cache_root is not None:  # written with a worker's own entries
                        mine.append((jobs[i][0], jobs[i][1], entry))
                if mine:  # one task per chunk: each task is a round trip through the pool's threads
                    kept.append(pool.submit(_store_chunk, mine))
                continue
            done = pending.popleft().result()
            if front < back:
                pending.append(pool.submit(_extract_chunk, jobs[starts[front] : starts[front] + _CHUNK]))
                front += 1
            for made in done:
                if made is not None and cache_root is not None:
                    made = (unpack(made[0]), made[1], made[2])
                yield made
        writes = Writes(pool, workers, cache_root, kept)
        if later is None:
            writes()
        else:
            if not defer:
                writes.start()
            later.append(writes)
        handed_over = True
        for _ in range(min(back * _CHUNK, len(jobs)), len(jobs)):  # what the parent did itself
            yield None
    finally:
        # Handed over: the workers finish their writes (once started, see Writes) and exit on their
        # own (the interpreter waits for them at exit). Otherwise (an error, a caller that stopped
        # early): stop them now.
        if not handed_over:
            pool.shutdown(wait=True, cancel_futures=True)
