"""Extraction in worker processes gives the receipt one process gives, and fails the same way.

A real git repository with enough files for workers to start (receipt.extract.forked.MIN_FILES),
mixing what extraction records rather than drops: a syntax error, undecodable bytes, a file over
the size limit; and tools whose verdict depends on a module the workers extract.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from receipt.extract.forked import MIN_FILES, worker_count
from tests.helpers import GitRepoBuilder, run_cli

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="worker processes are forked on Linux only")

LIBRARY = """
def helper_{n}(x):
    total = 0
    for i in range(x):
        total += i * {n}
    return total
"""
TOOLS = """
from receipt.markers import tool
from shop.settings import GATE
from shop.lib.m3 import helper_3

@tool(dangerous=True, approval=GATE)
def refund(order_id: str):
    '''Refund an order.'''
    return helper_3(1)

@tool(read_only=True)
def lookup(order_id: str):
    '''Look an order up.'''
"""
AGENT = """
from receipt.markers import agent
from shop import lookup, refund

@agent(model="gpt-5")
def support(q):
    lookup(q)
    return refund(q)
"""


def _tree(gate: str) -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {f"shop/lib/m{n}.py": LIBRARY.format(n=n) for n in range(MIN_FILES + 16)}
    files["shop/__init__.py"] = "from shop.tools import refund, lookup\n"
    files["shop/agent.py"] = AGENT
    files["shop/lib/__init__.py"] = ""
    files["shop/settings.py"] = f'GATE = "{gate}"\n'
    files["shop/tools.py"] = TOOLS
    files["shop/broken.py"] = "def oops(:\n"
    files["shop/latin.py"] = b"# no coding cookie\nNAME = '\xe9'\n"
    files["shop/huge.py"] = "X = [\n" + "    1,\n" * 4_000 + "]\n"
    files[".receipt.toml"] = "max_file_bytes = 4000\n"  # huge.py is over it
    return files


def _trace_diff(repo: GitRepoBuilder, workers: int, *extra: str) -> tuple[int, str, str]:
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--format", "json", *extra,
                  env={"RECEIPT_WORKERS": str(workers), "RECEIPT_TODAY": "2026-01-01"})
    return out.returncode, out.stdout, out.stderr


def test_workers_start_for_a_large_tree_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECEIPT_WORKERS", "2")
    assert worker_count(MIN_FILES * 10) == 2
    assert worker_count(MIN_FILES - 1) == 0  # a few files: extracted in the parent
    monkeypatch.setenv("RECEIPT_WORKERS", "1")
    assert worker_count(MIN_FILES * 10) == 0


def test_receipt_with_workers_is_byte_identical_to_one_process(git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git_repo.commit(_tree("always"))
    git_repo.commit({"shop/settings.py": 'GATE = "never"\n', "shop/lib/m7.py": LIBRARY.format(n=70)})
    one = _trace_diff(git_repo, 1)
    assert one[0] == 1, one[2]  # approval lowered: the verdict fails
    receipt = one[1]
    assert "tool.approval_lowered" in receipt and "refund" in receipt and "shop/broken.py" in receipt and "shop/latin.py" in receipt and "shop/huge.py" in receipt
    assert _trace_diff(git_repo, 2) == one
    # The entries the workers wrote are the ones one process writes: a warm run reads them.
    cache = tmp_path / "cache"
    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(cache))
    assert _trace_diff(git_repo, 2) == one
    assert len(list((cache / "facts").rglob("*.zjson"))) >= MIN_FILES
    assert _trace_diff(git_repo, 1) == one


def test_a_missing_object_fails_as_without_workers(git_repo: GitRepoBuilder) -> None:
    git_repo.commit(_tree("always"))
    git_repo.commit({"shop/settings.py": 'GATE = "never"\n'})
    oid = git_repo.git("rev-parse", "HEAD~1:shop/lib/m5.py")
    (git_repo.path / ".git" / "objects" / oid[:2] / oid[2:]).unlink()  # a loose object lost
    one = _trace_diff(git_repo, 1)
    assert one[0] not in (0, 1) and oid[:12] in one[2] and "Traceback" not in one[2]
    assert _trace_diff(git_repo, 2) == one


def test_parent_does_files_while_it_waits_each_file_once_in_order(git_repo: GitRepoBuilder) -> None:
    from receipt.extract.cache import decode_entry
    from receipt.extract.pool import extract_entries

    git_repo.commit(_tree("always"))
    listed = git_repo.git("ls-tree", "-r", "HEAD", "shop/lib").splitlines()
    jobs = [(line.split()[2], line.split("\t")[1]) for line in listed]
    assert len(jobs) > MIN_FILES
    by_parent: list[int] = []

    def local(i: int) -> None:
        by_parent.append(i)
        if i % 2:
            raise OSError("this one is left to the caller")  # as if the parent could not read it

    made = list(extract_entries(git_repo.path / ".git", jobs, None, 2, local))
    assert len(made) == len(jobs)
    assert len(set(by_parent)) == len(by_parent)  # no file twice
    for i, ((blob, path), got) in enumerate(zip(jobs, made)):
        if i in by_parent:
            assert got is None  # the caller finds it in its memory (or does it, when local failed)
        else:
            assert got is not None and decode_entry(got[0], blob, path).path == path
    # The parent's share is the end of the list: the workers' entries come first, in order.
    assert by_parent == [] or min(by_parent) > max(i for i, got in enumerate(made) if got is not None)


def test_workers_leave_the_cache_one_process_leaves(git_repo: GitRepoBuilder, tmp_path: Path) -> None:
    """Workers write the entries (theirs and the parent's) after extraction: the run still ends with
    every entry on disk, each the bytes one process writes, and a second run reads them all. With
    three workers every chunk is theirs from the start (the parent extracts nothing), which is when
    the writes are handed over last."""
    from receipt.extract.cache import pack, unpack

    git_repo.commit(_tree("always"))
    git_repo.commit({"shop/settings.py": 'GATE = "never"\n', "shop/lib/m7.py": LIBRARY.format(n=70)})
    entries = {}
    for workers in (1, 2, 4):
        cache = tmp_path / f"cache-{workers}"
        out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path), "--format", "json",
                      env={"RECEIPT_WORKERS": str(workers), "RECEIPT_TODAY": "2026-01-01", "RECEIPT_CACHE_DIR": str(cache)})
        assert out.returncode == 1, out.stderr
        entries[workers] = {f.name: unpack(f.read_bytes()) for f in (cache / "facts").rglob("*.zjson")}
    assert len(entries[1]) >= MIN_FILES + 16 and entries[2] == entries[1] and entries[4] == entries[1]


@pytest.mark.parametrize("phase", ["extracting", "writing"])
def test_a_worker_that_dies_leaves_its_files_to_the_parent_and_the_run_ends(git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, phase: str) -> None:
    """A real worker process killed while it extracts the tools' module, or while it writes the
    entries it kept (the other worker then waits for it at the barrier): the run ends, with the
    receipt one process gives. The pool is broken, its survivors stopped, and the parent extracts
    what it did not get."""
    import os

    from receipt.extract import pool
    from receipt.pipeline import build_receipt

    git_repo.commit(_tree("always"))
    git_repo.commit({"shop/settings.py": 'GATE = "never"\n', "shop/lib/m7.py": LIBRARY.format(n=70)})
    monkeypatch.setenv("RECEIPT_TODAY", "2026-01-01")

    def changes(workers: int, cache: Path) -> list:  # type: ignore[type-arg]
        monkeypatch.setenv("RECEIPT_WORKERS", str(workers))
        monkeypatch.setenv("RECEIPT_CACHE_DIR", str(cache))
        return [c.model_dump(mode="json") for c in build_receipt(str(git_repo.path), "HEAD~1", "HEAD").changes]

    one = changes(1, tmp_path / "one")
    assert any(c["id"] == "tool.approval_lowered" for c in one)
    parent = os.getpid()
    victim = "shop/lib/m3.py"  # the module the tools call into: extracted by a worker (chunk order)
    if phase == "extracting":
        real = pool.extract_file
        monkeypatch.setattr(pool, "extract_file", lambda path, data: os._exit(9) if os.getpid() != parent and path == victim else real(path, data))
    else:
        # Entries are written compressed (store_packed), those kept to write later and the others.
        real_packed = pool.store_packed
        monkeypatch.setattr(pool, "store_packed", lambda root, blob, path, data: os._exit(9) if os.getpid() != parent and path == victim else real_packed(root, blob, path, data))
    assert changes(2, tmp_path / "two") == one
    monkeypatch.undo()
    monkeypatch.setenv("RECEIPT_TODAY", "2026-01-01")
    assert changes(1, tmp_path / "two") == one  # what the broken pool left in the cache reads back right


def _receipt_json(repo: GitRepoBuilder) -> str:
    """The JSON receipt of HEAD~1 -> HEAD, made in this process (where a child can be watched)."""
    import datetime as dt

    from receipt.pipeline import build_receipt
    from receipt.render import render_json

    return render_json(build_receipt(repo.path, "HEAD~1", "HEAD", today=dt.date(2026, 1, 1)), include_surfaces=True)


@pytest.fixture
def two_revisions(git_repo: GitRepoBuilder) -> GitRepoBuilder:
    git_repo.commit(_tree("always"))
    git_repo.commit({"shop/settings.py": 'GATE = "never"\n', "shop/lib/m7.py": LIBRARY.format(n=70), "shop/new.py": TOOLS.replace("refund", "wipe")})
    return git_repo


def test_head_linked_aside_is_the_head_linked_here(two_revisions: GitRepoBuilder, monkeypatch: pytest.MonkeyPatch) -> None:
    """The head, linked in a forked child while the base is linked, gives the receipt one process gives."""
    from receipt.extract import forked

    monkeypatch.setenv("RECEIPT_CACHE_DIR", "")
    monkeypatch.setenv("RECEIPT_WORKERS", "1")
    one = _receipt_json(two_revisions)
    assert "tool.approval_lowered" in one and "wipe" in one
    forks: list[bool] = []
    real = forked.aside

    def counted(work):  # type: ignore[no-untyped-def]
        got = real(work)
        forks.append(got is not None)
        return got

    monkeypatch.setattr(forked, "aside", counted)
    monkeypatch.setenv("RECEIPT_WORKERS", "2")
    assert _receipt_json(two_revisions) == one
    assert forks == [True]


@pytest.mark.parametrize("failure", ["dies", "raises", "garbles"])
def test_a_child_that_fails_leaves_the_head_to_this_process(two_revisions: GitRepoBuilder, monkeypatch: pytest.MonkeyPatch, failure: str) -> None:
    """Fail closed: whatever happens to the child, the head is linked here and the receipt is the same."""
    import os

    from receipt import pipeline

    monkeypatch.setenv("RECEIPT_CACHE_DIR", "")
    monkeypatch.setenv("RECEIPT_WORKERS", "1")
    one = _receipt_json(two_revisions)
    real = pipeline._link_aside

    def broken(*args):  # type: ignore[no-untyped-def]
        if failure == "dies":
            os._exit(0)  # exits "cleanly" without a word
        if failure == "raises":
            raise RuntimeError("linking failed in the child")
        return real(*args)[:-5]  # cut short

    monkeypatch.setattr(pipeline, "_link_aside", broken)
    monkeypatch.setenv("RECEIPT_WORKERS", "2")
    assert _receipt_json(two_revisions) == one


def test_aside_returns_the_bytes_or_none(monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import signal

    from receipt.extract.forked import aside

    monkeypatch.setenv("RECEIPT_WORKERS", "2")
    big = bytes(range(256)) * 4096  # more than a pipe holds: the child waits for the reader
    job = aside(lambda: big)
    assert job is not None and job.result(60) == big
    job = aside(lambda: os.kill(os.getpid(), signal.SIGKILL) or b"never")
    assert job is not None and job.result(60) is None
    job = aside(lambda: __import__("time").sleep(60) or b"late")
    assert job is not None and job.result(0.2) is None  # stopped: the caller does it itself
    monkeypatch.setenv("RECEIPT_WORKERS", "1")
    assert aside(lambda: b"x") is None  # no second core wanted: nothing forked


def test_aside_works_for_a_process_with_many_files_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """A library caller holding over 1,024 descriptors: the child's pipe still reads (select() would
    refuse it and crash the receipt)."""
    import os
    import resource

    from receipt.extract.forked import aside

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip("this machine allows fewer than 1,200 open files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        monkeypatch.setenv("RECEIPT_WORKERS", "2")
        job = aside(lambda: b"made aside")
        assert job is not None and job.fd >= 1024
        assert job.result(60) == b"made aside"
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _children() -> list[int]:
    import os

    me, kids = os.getpid(), []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat[1]) == me:  # a zombie (never reaped) counts: it is what is looked for
            kids.append(int(pid))
    return kids


def test_a_receipt_that_fails_leaves_no_child_behind(two_revisions: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run with its surfaces cached checks the files that differ in a child process; an error
    after it started (here: the layout files cannot be listed) still reaps it."""
    from receipt import pipeline
    from receipt.errors import GitError

    monkeypatch.setenv("RECEIPT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("RECEIPT_WORKERS", "1")
    pipeline.build_receipt(two_revisions.path, "HEAD~1", "HEAD")  # both surfaces cached
    before = _children()

    def unlisted(repo, sha):  # type: ignore[no-untyped-def]
        raise GitError("layout files cannot be listed")

    monkeypatch.setattr(pipeline, "_layout_files", unlisted)
    for _ in range(2):
        with pytest.raises(GitError):
            pipeline.build_receipt(two_revisions.path, "HEAD~1", "HEAD")
    assert _children() == before


def test_writes_held_until_the_base_is_linked_leave_the_cache_one_process_leaves(git_repo: GitRepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With pipeline.HOLD_WRITES the workers write their entries only once the base is linked (the
    head linked in a child meanwhile): the receipt, and every entry on disk when it is returned,
    are those of one process."""
    from receipt.extract.cache import pack, unpack

    from receipt import pipeline

    git_repo.commit(_tree("always"))
    git_repo.commit({"shop/settings.py": 'GATE = "never"\n', "shop/lib/m7.py": LIBRARY.format(n=70)})
    monkeypatch.setenv("RECEIPT_TODAY", "2026-01-01")

    def run(workers: int, hold: bool) -> tuple[list, dict]:  # type: ignore[type-arg]
        monkeypatch.setattr(pipeline, "HOLD_WRITES", hold)
        monkeypatch.setenv("RECEIPT_WORKERS", str(workers))
        cache = tmp_path / f"cache-{workers}-{hold}"
        monkeypatch.setenv("RECEIPT_CACHE_DIR", str(cache))
        changes = [c.model_dump(mode="json") for c in pipeline.build_receipt(str(git_repo.path), "HEAD~1", "HEAD").changes]
        return changes, {f.name: unpack(f.read_bytes()) for f in (cache / "facts").rglob("*.zjson")}

    one = run(1, False)
    assert any(c["id"] == "tool.approval_lowered" for c in one[0]) and len(one[1]) >= MIN_FILES + 16
    assert run(2, True) == one
