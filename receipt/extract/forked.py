"""Work done by forked processes beside this one: how many may run, and one piece of work done aside.

`aside` runs one piece of work in a forked child while the parent goes on (a receipt links its head
there while it links the base; a rerun checks the files that differ there while it reads its cached
surfaces; see pipeline.py): the child starts with every fact the parent holds and answers with
bytes; whatever goes wrong, the parent does that work itself. Small on purpose: a rerun imports it
without the worker pool (extract/pool.py).
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
import warnings
from collections.abc import Callable


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def wanted_processes() -> int:
    """How many processes may work at once: `RECEIPT_WORKERS`, else the usable cores; 0 where
    processes are not forked (not Linux)."""
    raw = os.environ.get("RECEIPT_WORKERS", "").strip()
    try:
        wanted = int(raw) if raw else usable_cores()
    except ValueError:
        wanted = usable_cores()
    if sys.platform != "linux" or not hasattr(os, "fork"):
        return 0
    return wanted


# Below this many files to extract, starting workers (extract/pool.py) costs more than it saves.
MIN_FILES = 64
FILES_PER_TASK = 8  # files per task: fewer round trips, still an even share at the end


def worker_count(files: int) -> int:
    """Extraction workers for `files` files (extract/pool.py): 0 means extract in this process.
    Here, not in pool.py: a run with a few files to extract never imports the pool."""
    wanted = wanted_processes()
    if wanted < 2 or files < MIN_FILES:
        return 0
    return min(wanted, files // FILES_PER_TASK)


class Aside:
    """Work a forked child does while this process goes on (see `aside`): its bytes, once."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid = pid
        self.fd = fd

    def result(self, patience: float) -> bytes | None:
        """What the child made, or None: it failed, died, or took longer than `patience` seconds
        from now (it is then stopped). Either way the child is gone when this returns."""
        chunks: list[bytes] = []
        deadline = time.monotonic() + patience
        try:
            # poll, not select: select refuses a descriptor numbered 1024 or more (a library caller
            # with many files open), and any failure here is the caller's to redo, never a crash.
            waiting = select.poll()
            waiting.register(self.fd, select.POLLIN)
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not waiting.poll(left * 1000):
                    return None
                chunk = os.read(self.fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        except Exception:  # noqa: BLE001 - see above
            return None
        finally:
            ok = self._end()
        data = b"".join(chunks)
        # A length prefix: output cut short by a child that died while writing is not taken.
        if not ok or len(data) < 8 or int.from_bytes(data[:8], "big") != len(data) - 8:
            return None
        return data[8:]

    def _end(self) -> bool:
        """Close the pipe and reap the child (stopped first if still running); True when it exited 0."""
        if self.pid < 0:
            return False
        pid, self.pid = self.pid, -1
        os.close(self.fd)
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
            if not done:
                os.kill(pid, signal.SIGKILL)
                _, status = os.waitpid(pid, 0)
        except OSError:  # pragma: no cover - reaped by someone else
            return False
        return os.waitstatus_to_exitcode(status) == 0

    def cancel(self) -> None:
        """Stop the child if its result was not taken (an error in this process meanwhile)."""
        self._end()


def aside(work: Callable[[], bytes]) -> Aside | None:
    """Run `work` in a forked child while this process goes on; None when there is no second core
    to be had (`RECEIPT_WORKERS=1`, one usable core) or no child could be forked: the caller then
    does the work itself, as it would anyway when the child fails.

    The child starts with this process's memory (what it computed so far, shared until written),
    returns nothing but the bytes `work` made, through a pipe, and ends with `os._exit`: no exit
    handler, buffered output or pool of this process runs twice. It must not touch what another
    thread of this process may hold (a pool's queues, this process's git reader, the progress
    line): those threads do not exist in the child.
    """
    if wanted_processes() < 2:
        return None
    read, write = os.pipe()
    try:
        with warnings.catch_warnings():
            # Python >= 3.12 warns of forking a process with threads (a pool still writing its
            # entries): the child touches nothing those threads hold (see above).
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return None
    if pid == 0:  # the child
        code = 1
        try:
            os.close(read)
            data = work()
            view = memoryview(len(data).to_bytes(8, "big") + data)
            while view:
                view = view[os.write(write, view) :]
            code = 0
        except BaseException:  # noqa: BLE001 - any failure is the parent's to redo: exit non-zero
            pass
        finally:
            os._exit(code)
    os.close(write)
    return Aside(pid, read)
