"""Reading revisions straight from git objects: no worktree, no checkout, works in bare repositories."""

from __future__ import annotations

import fnmatch
import functools
import os
import posixpath
import re
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Callable, Iterable, Sequence

from receipt.errors import GitError
from receipt.models import ExtractionIssue

# What extraction reads. Everything else in the tree is ignored without a mention.
SOURCE_SUFFIXES = (".py", ".corvid-abi.json")
# Code Python runs that has no source to read: bytecode, native extensions, and .pth files (their
# `import` lines run at interpreter start-up). Listed so the receipt says it could not see them.
COMPILED_SUFFIXES = (".pyc", ".pyo", ".so", ".pyd", ".pth")
DEFAULT_MAX_FILE_BYTES = 1_000_000

_MODE_SYMLINK = "120000"
_MODE_SUBMODULE = "160000"


@dataclass(frozen=True)
class SourceFile:
    path: str  # repo-relative posix path
    blob: str  # git object id
    size: int


@dataclass
class TreeListing:
    files: list[SourceFile]
    skipped: list[ExtractionIssue]
    unmatched_paths: list[str] = field(default_factory=list)  # `paths` with nothing at or under them
    unused_excludes: list[str] = field(default_factory=list)  # `exclude` patterns that matched no path


def is_source(path: str) -> bool:
    return path.endswith(SOURCE_SUFFIXES)


def matches_any(path: str, patterns: Iterable[str]) -> bool:
    """Glob match on posix paths; `**` spans folders, and a folder pattern covers what is below it."""
    return any(_glob(pat)(path) for pat in patterns)


@functools.lru_cache(maxsize=256)
def _glob(pattern: str) -> Callable[[str], bool]:
    """One pattern of `matches_any`, compiled once (a tree lists thousands of paths per pattern)."""
    pat = pattern.strip("/")
    exact = re.compile(fnmatch.translate(pat)).match
    flat = re.compile(fnmatch.translate(pat.replace("**/", ""))).match
    folder = pat + "/"
    return lambda path: exact(path) is not None or flat(path) is not None or path.startswith(folder)


def _needles(patterns: Iterable[str]) -> tuple[str, ...] | None:
    """A substring each path a pattern matches (exactly, without its `**/`, or as a folder) must
    hold, for every pattern; None when a pattern has none (only wildcards, or a `[...]` class)."""
    found: list[str] = []
    for pattern in patterns:
        pat = pattern.strip("/")
        if "[" in pat:
            return None
        for variant in (pat, pat.replace("**/", "")):
            longest = max(re.split(r"[*?]+", variant), key=len)
            if not longest:
                return None
            found.append(longest)
    return tuple(dict.fromkeys(found))


@functools.lru_cache(maxsize=16)
def _patterns_matching(patterns: tuple[str, ...]) -> Callable[[str], list[str]]:
    """path -> the patterns (of `patterns`) it matches. One combined regex turns most paths away
    before each pattern is tried: a tree lists thousands of paths, a pattern matches few."""
    if not patterns:
        return lambda path: []
    alternatives = []
    folders = []
    for pattern in patterns:
        pat = pattern.strip("/")
        alternatives += [fnmatch.translate(pat), fnmatch.translate(pat.replace("**/", ""))]
        folders.append(pat + "/")
    any_glob = re.compile("|".join(f"(?:{a})" for a in alternatives)).match
    prefixes = tuple(folders)
    # Cheaper still: a path a pattern matches holds the pattern's longest literal run (`/tests/` for
    # `**/tests/**`), so a path holding none of them is turned away by substring tests. The regex
    # (a `.*` that backtracks per alternative) cost ~10 us a path. None: some pattern has no such run.
    needles = _needles(patterns)

    def matching(path: str) -> list[str]:
        if needles is not None:
            for n in needles:
                if n in path:
                    break
            else:
                return []
        if any_glob(path) is None and not path.startswith(prefixes):
            return []
        return [pat for pat in patterns if _glob(pat)(path)]

    return matching


class GitRepo:
    """A repository read through `git` itself: one `rev-parse` to find it, one long-lived
    `cat-file --batch` for revisions and objects, `ls-tree` for listings. No GitPython on this path:
    importing it and the `git version` processes it starts cost ~50 ms of every run, a tenth of
    an identical rerun."""

    def __init__(self, path: str | os.PathLike[str]):
        where = Path(path)
        if not where.exists():
            raise GitError(f"repository path does not exist: {path}")
        # Printed line by line: the last one fails (no work tree) in a bare repository, and what
        # came before it still says what git found there.
        found = _run(["git", "-C", str(where), "rev-parse", "--absolute-git-dir", "--is-bare-repository", "--is-inside-work-tree", "--show-toplevel"])
        lines = found.stdout.decode("utf-8", "surrogateescape").splitlines()
        if len(lines) < 3:
            why = _first_line_of(found.stderr)
            if "dubious ownership" in why:
                raise GitError(
                    f"git refuses this repository (dubious ownership): {path}",
                    hint=f"fix: git config --global --add safe.directory {where.resolve()}",
                )
            raise GitError(f"not a git repository: {path}") from None
        self.git_dir = Path(lines[0])
        # A bare mirror without `core.bare` (what some mirroring tools write), named directly, is
        # bare to git: it is read as such (it used to read as a work tree's .git, "unknown revision").
        self._work_tree: Path | None = None
        if lines[2] == "true" and len(lines) > 3:
            self._work_tree = Path(lines[3])
        elif lines[1] == "false" and self.git_dir.name == ".git":  # `--repo` names a work tree's .git
            self._work_tree = self.git_dir.parent
        # Objects as stored: `git replace` must not make a blob id read as another blob's text (the
        # facts cache is keyed by blob id, and a receipt names what the commits hold).
        self._base = ["git", "--no-replace-objects", f"--git-dir={self.git_dir}"]
        self._batch: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        # Config, template and keyring are read from the same commit by several stages of one run.
        self._paths: dict[tuple[str, str], bytes | None] = {}
        # `ls-tree` output by (commit, paths): sources and layout files are listed from one tree, and
        # a whole tree's listing answers `read_path` without another git process.
        self._trees: dict[tuple[str, tuple[str, ...]], str] = {}
        # `list_files`: what each ls-tree record comes to, by the listing's settings.
        self._decided: dict[tuple, dict[str, tuple]] = {}
        # Whole-tree listings started by `prefetch_trees`, by commit, not yet collected.
        self._listing: dict[str, _Background] = {}

    @property
    def work_tree(self) -> Path | None:
        """The work tree's root, resolved; None for a bare repository."""
        return None if self._work_tree is None else self._work_tree.resolve()

    @property
    def is_shallow(self) -> bool:
        return (self.git_dir / "shallow").exists()

    def _git(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return _run([*self._base, *args])

    def _batch_pipes(self) -> tuple[IO[bytes], IO[bytes]]:
        """The questions and answers pipes of the run's `git cat-file --batch`, started (again) when
        it is not running. Called with `_lock` held."""
        if self._batch is None or self._batch.poll() is not None:
            self._batch = subprocess.Popen(
                [*self._base, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env=_env(),
            )
        assert self._batch.stdin is not None and self._batch.stdout is not None
        return self._batch.stdin, self._batch.stdout

    def _object(self, name: str) -> tuple[str, str, bytes] | None:
        """(oid, type, content) of any object name git understands, or None when it names none.
        Read through one `git cat-file --batch` process kept for the run."""
        if "\n" in name or "\r" in name or not name.strip():
            return None
        with self._lock:
            try:
                ask, answers = self._batch_pipes()
                ask.write(name.encode("utf-8", "surrogateescape") + b"\n")
                ask.flush()
                header, data = _answer(answers)
                if data is not None:
                    return header[0].decode("ascii"), header[1].decode("ascii"), data
                elif len(header) >= 2 and header[-1] in (b"missing", b"ambiguous"):
                    if header[-1] == b"ambiguous":
                        raise GitError(f"short sha {name} is ambiguous in this repository", hint="name the commit with more characters")
                    return None
            except (OSError, ValueError):
                pass
            # The process died or answered out of step: the next question starts a new one.
            self._stop_batch()
            raise GitError(f"cannot read {name[:40]!r} from {self.git_dir}: git cat-file stopped answering")

    def _stop_batch(self) -> None:
        batch, self._batch = self._batch, None
        if batch is None:
            return
        for stream in (batch.stdin, batch.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            batch.wait(timeout=5)
        except (subprocess.TimeoutExpired, ChildProcessError):  # pragma: no cover - a wedged git
            batch.kill()

    def resolve(self, rev: str) -> str:
        """Full commit sha for any revision spelling (sha, branch, tag, HEAD~1, ...)."""
        if not rev or rev.startswith("-"):
            raise GitError(f"invalid revision {rev!r}")
        found = self._object(rev)
        if found is not None and found[1] == "tag":  # annotated tags point at commits (or at tags)
            found = self._object(f"{found[0]}^{{}}")
        if found is None:
            raise self._missing(rev)
        oid, otype, _ = found
        if otype != "commit":
            raise GitError(f"revision {rev!r} is a {otype}, not a commit")
        return oid

    def _missing(self, rev: str) -> GitError:
        looks_like_sha = len(rev) >= 7 and all(c in "0123456789abcdef" for c in rev.lower())
        if looks_like_sha:
            return GitError(
                f"commit {rev} is not in this repository" + (" (shallow clone)" if self.is_shallow else ""),
                hint=f"fix: git fetch --no-tags origin {rev}"
                if len(rev) == 40
                else "fix: git fetch --no-tags origin   (then retry; git fetches a single commit only by its full 40-character sha)",
            )
        if self.is_shallow and ("~" in rev or "^" in rev):
            return GitError(
                f"revision {rev!r} is beyond the history of this shallow clone",
                hint="fix: git fetch --deepen=50   (or: git fetch --unshallow)",
            )
        return GitError(f"unknown revision {rev!r}: {self._why_unknown(rev)}")

    def _why_unknown(self, rev: str) -> str:
        """The likely reason a revision does not resolve: no commits, past the first commit, a typo."""
        import difflib

        if self._object("HEAD") is None:
            return "the repository has no commits yet"
        m = re.fullmatch(r"(.+?)((?:[~^]\d*)+)", rev)
        if m is not None:
            try:
                start = self.resolve(m.group(1))
                counted = self._git("rev-list", "--count", "--first-parent", start)
                count = int(counted.stdout.strip())
                return (
                    f"{m.group(1)} has only {count} commit{'s' if count != 1 else ''} of history"
                    + (" (it is the first commit: it has no parent)" if count == 1 else "")
                )
            except Exception:  # noqa: BLE001 - the base itself is unknown: fall through to names
                rev = m.group(1)
        refs = self._git("for-each-ref", "--format=%(refname)").stdout.decode("utf-8", "replace").split()
        names = ["HEAD", *(_ref_name(r) for r in refs)]
        names += [n.split("/", 1)[1] for n in names if n.startswith("origin/")]
        close = difflib.get_close_matches(rev, sorted(set(names)), n=1, cutoff=0.6)
        if close:
            return f"no branch, tag or commit of that name; did you mean {close[0]!r}?"
        return "no branch, tag or commit of that name"

    def merge_base(self, base: str, head: str) -> str:
        out = self._git("merge-base", base, head)
        lines = out.stdout.decode("ascii", "replace").split()
        if out.returncode != 0 or not lines:
            hint = "fix: git fetch --no-tags --unshallow origin   (the merge base is missing from this clone)"
            if self.is_shallow:
                hint = f"fix: git fetch --no-tags --deepen=100 origin {base} {head}   (or: git fetch --unshallow)"
            raise GitError(f"no merge base between {base[:12]} and {head[:12]}", hint=hint) from None
        return lines[0]

    def is_ancestor(self, older: str, newer: str) -> bool:
        return self._git("merge-base", "--is-ancestor", older, newer).returncode == 0

    def list_files(
        self,
        sha: str,
        paths: Sequence[str] = (),
        *,
        exclude: Sequence[str] = (),
        max_bytes: int = DEFAULT_MAX_FILE_BYTES,
        strict_paths: bool = False,
        wanted: Callable[[str], bool] = is_source,
    ) -> TreeListing:
        """Source files at a commit, limited to `paths`; symlinks, submodules and huge files listed as skipped."""
        clean = [p.strip("/") for p in paths if p.strip("/") not in ("", ".")]
        out = self._ls_tree(sha, tuple(clean))
        excluded = _patterns_matching(tuple(exclude))
        files: list[SourceFile] = []
        skipped: list[ExtractionIssue] = []
        seen_prefixes: set[str] = set()
        used_excludes: set[str] = set()
        # What each record comes to, kept for the next listing with the same settings: a receipt
        # lists two trees that share nearly every record (and a record says everything decided
        # here: mode, type, object, size and path).
        decided = self._decided.setdefault((tuple(clean), tuple(exclude), max_bytes, wanted), {})
        for record in out.split("\0"):
            if not record:
                continue
            got = decided.get(record)
            if got is None:
                got = decided[record] = _decide(record, excluded if exclude else None, max_bytes, wanted)
            path, hit, outcome = got
            for p in clean:
                if path == p or path.startswith(p + "/"):
                    seen_prefixes.add(p)
            if hit:
                used_excludes.update(hit)
            elif type(outcome) is SourceFile:  # frozen: shared between listings
                files.append(outcome)
            elif outcome is not None:  # an issue is made for each listing: a receipt marks its own `touched`
                skipped.append(_skip(path, *outcome))
        missing = [p for p in clean if p not in seen_prefixes]
        if strict_paths:
            if missing:
                raise GitError(
                    f"path not found at {sha[:12]}: {', '.join(missing)}",
                    hint="PATH limits the scan to files and folders that exist at both revisions",
                )
        files.sort(key=lambda f: f.path)
        skipped.sort(key=lambda s: s.path)
        unused = [pat for pat in exclude if pat not in used_excludes]
        return TreeListing(files=files, skipped=skipped, unmatched_paths=missing, unused_excludes=unused)

    def _ls_tree(self, sha: str, clean: tuple[str, ...]) -> str:
        key = (sha, clean)
        if key not in self._trees:
            args = ["-r", "-l", "-z", "--full-tree", sha]
            if clean:
                args += ["--", *clean]
            started = self._listing.pop(sha, None) if not clean else None
            out = started.result() if started is not None else self._git("ls-tree", *args)
            if out.returncode != 0:
                raise GitError(f"cannot list tree of {sha[:12]}: {_first_line_of(out.stderr)}")
            self._trees[key] = out.stdout.decode("utf-8", "surrogateescape")
        return self._trees[key]

    def read_blob(self, oid: str) -> bytes:
        found = self._object(oid) if _OID.fullmatch(oid) else None
        if found is None:
            raise GitError(f"cannot read object {oid[:12]}: not in this repository", hint=f"fix: git fetch --no-tags origin {oid}")
        return found[2]

    def read_blobs(self, oids: Sequence[str]) -> list[bytes | None]:
        """The contents of these objects (None for one git does not have, or a malformed id), asked
        in one round trip to `git cat-file` (a worker process waits for git to be scheduled once per
        question: on two busy cores that wait is what reading costs). At most 256 at once: every
        question is written before the first answer is read, so they must fit in the pipe."""
        wanted = [oid for oid in oids if _OID.fullmatch(oid)]
        if len(wanted) > 256:
            raise ValueError("at most 256 objects at once")
        found: dict[str, bytes | None] = {}
        with self._lock:
            try:
                ask, answers = self._batch_pipes()
                ask.write(b"".join(oid.encode("ascii") + b"\n" for oid in wanted))
                ask.flush()
                for oid in wanted:
                    header, data = _answer(answers)
                    if data is not None:
                        if header[0].decode("ascii") != oid:
                            raise ValueError("answer out of step")
                        found[oid] = data  # whatever its type, as `read_blob` reads it
                    elif len(header) == 2 and header[1] == b"missing" and header[0].decode("ascii") == oid:
                        found[oid] = None
                    else:
                        raise ValueError("answer out of step")
                return [found.get(oid) for oid in oids]
            except (OSError, ValueError):
                pass
            self._stop_batch()
            raise GitError(f"cannot read objects from {self.git_dir}: git cat-file stopped answering")

    def list_tree(self, *shas: str) -> None:
        """List the whole trees at `shas` now (one git process each, run side by side): the files a
        run reads from them (config, keyring, template) are then found in those listings, without a
        git process each."""
        self.prefetch_trees(*shas)
        for sha in shas:
            self._ls_tree(sha, ())

    def prefetch_trees(self, *shas: str) -> None:
        """Start listing the whole trees at `shas` (commit ids) in the background: `ls-tree -l` looks
        up every object's size, the slowest git step of an identical rerun, and two of them run at
        once on two cores. Collected when a tree is first listed; a failure is reported then."""
        for sha in shas:
            if (sha, ()) not in self._trees and sha not in self._listing:
                self._listing[sha] = _Background([*self._base, "ls-tree", "-r", "-l", "-z", "--full-tree", sha])

    def read_path(self, sha: str, path: str) -> bytes | None:
        """A file's bytes at a commit, or None when it does not exist there."""
        if (sha, path) not in self._paths:
            self._paths[(sha, path)] = self._read_path(sha, path)
        return self._paths[(sha, path)]

    def _read_path(self, sha: str, path: str) -> bytes | None:
        listed = self._trees.get((sha, ()))
        if listed is not None and path and posixpath.normpath(path) == path and not path.startswith(("/", "../")) and path != "..":
            mode, otype, oid = _record_of(listed, path) or ("", "", "")
            return self.read_blob(oid) if otype == "blob" and mode != _MODE_SYMLINK else None
        listed = self._git("ls-tree", "-z", "--full-tree", sha, "--", path)
        if listed.returncode != 0:
            raise GitError(f"cannot list tree of {sha[:12]}: {_first_line_of(listed.stderr)}")
        out = listed.stdout.decode("utf-8", "surrogateescape")
        for record in out.split("\0"):
            if not record:
                continue
            meta, _, p = record.partition("\t")
            mode, otype, oid = meta.split()[:3]
            if p == path and otype == "blob" and mode != _MODE_SYMLINK:
                return self.read_blob(oid)
        return None

    def detach(self) -> None:
        """In a forked child process: read objects through a `git cat-file` of its own (the parent's
        process, pipes and lock stay the parent's)."""
        self._batch = None
        self._lock = threading.Lock()
        self._listing = {}

    def close(self) -> None:
        """End the `git cat-file` process this reader keeps (a later read starts another)."""
        with self._lock:
            self._stop_batch()

    def __enter__(self) -> "GitRepo":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _decide(
    record: str, excluded: Callable[[str], list[str]] | None, max_bytes: int, wanted: Callable[[str], bool]
) -> tuple[str, list[str], SourceFile | tuple[str, ...] | None]:
    """One `ls-tree -r -l` record: (path, the exclude patterns it matches, and then a file to read,
    the (reason, message, kind) of an issue, or None: not listed)."""
    meta, _, path = record.partition("\t")
    mode, otype, oid, size = meta.split(None, 3)
    if excluded:
        hit = excluded(path)
        if hit:
            return path, hit, None
    if not path.isascii() and _not_utf8(path):
        if not (wanted(path) or path.endswith(COMPILED_SUFFIXES)):
            return path, [], None
        # Its name cannot be said exactly (nor hashed into a cache key): reported, escaped, never
        # read, so a file hidden behind such a name is not a silent miss.
        shown = path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        return shown, [], ("unreadable-path", "file name is not valid UTF-8: not analysed", "error")
    if mode == _MODE_SUBMODULE:
        return path, [], ("submodule", "submodule: its code lives in another repository and is not scanned")
    if path.endswith(COMPILED_SUFFIXES) and otype == "blob":
        return path, [], ("compiled-code", f"committed {path.rsplit('.', 1)[-1]} file: Python can run it "
                          "but it has no source to analyse, so what it defines is not in the surface", "unresolved")
    if not wanted(path):
        return path, [], None
    if mode == _MODE_SYMLINK:
        return path, [], ("symlink", "symlink: not followed (its target is scanned where it lives)")
    if otype != "blob":
        return path, [], None
    n = int(size) if size.strip().isdigit() else 0
    if n > max_bytes:
        return path, [], ("too-large", f"file of {n} bytes exceeds the {max_bytes}-byte limit", "error")
    return path, [], SourceFile(path=path, blob=oid, size=n)


def _not_utf8(path: str) -> bool:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:  # bytes git listed that are not UTF-8 (kept as surrogates)
        return True
    return False


def _record_of(listing: str, path: str) -> tuple[str, str, str] | None:
    """(mode, type, oid) of `path` in `ls-tree -z` output, found by its text (a whole tree's
    listing is read for a few config files: no index of every path for them)."""
    needle = f"\t{path}\0"
    at = listing.find(needle)
    while at != -1:
        meta = listing[listing.rfind("\0", 0, at) + 1 : at]
        if "\t" not in meta:  # else `path` is the tail of a longer path holding a tab
            mode, otype, oid = meta.split()[:3]
            return mode, otype, oid
        at = listing.find(needle, at + 1)
    return None


def _skip(path: str, reason: str, message: str, kind: str = "skipped") -> ExtractionIssue:
    return ExtractionIssue(path=path, kind=kind, reason=reason, message=message)  # type: ignore[arg-type]


def _answer(answers: IO[bytes]) -> tuple[list[bytes], bytes | None]:
    """One answer of `git cat-file --batch`: its header's fields, and the object's content when the
    header announces one (None for `missing`, `ambiguous`, anything else). An answer cut short is out
    of step (ValueError)."""
    header = answers.readline().split()
    if len(header) == 3 and header[2].isdigit():
        size = int(header[2])
        data = answers.read(size + 1)
        if len(data) != size + 1:
            raise ValueError("answer cut short")
        return header, data[:size]
    return header, None


def _first_line_of(stderr: bytes) -> str:
    for line in stderr.decode("utf-8", "replace").splitlines():
        line = line.strip().removeprefix("fatal: ").removeprefix("error: ").strip()
        if line:
            return line
    return "git failed"


# Variables that would make git read another repository, object store or history than the one
# `--repo` names (set inside git hooks, `rebase -x`, `bisect run`): the environment never decides.
_REPOSITORY_ENV = frozenset({
    "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_REPLACE_REF_BASE", "GIT_NO_REPLACE_OBJECTS",
    "GIT_GRAFT_FILE", "GIT_SHALLOW_FILE",
})


def _env() -> dict[str, str]:
    """Git's messages in English whatever the locale: they are matched (dubious ownership) and shown."""
    env = {k: v for k, v in os.environ.items() if k not in _REPOSITORY_ENV}
    return {**env, "LC_ALL": "C", "LANGUAGE": "C"}


_OID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def _run(args: list[str]) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, env=_env())
    except OSError as e:  # no git on PATH, or it cannot be started
        raise GitError(f"cannot run git: {e.strerror or type(e).__name__}", hint="install git (2.20 or later) and put it on PATH") from None


class _Background:
    """A git process started now and collected later (`result`), as `_run` would have returned it.
    A thread drains its output: a listing is bigger than a pipe holds, and git must not wait on it."""

    def __init__(self, args: list[str]):
        self._done: subprocess.CompletedProcess[bytes] | None = None
        self._error: GitError | None = None
        try:
            self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env()
            )
        except OSError as e:
            self._proc = None
            self._error = GitError(f"cannot run git: {e.strerror or type(e).__name__}", hint="install git (2.20 or later) and put it on PATH")
            return
        self._args = args
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        assert self._proc is not None
        try:
            out, err = self._proc.communicate()
        except (OSError, ValueError) as e:  # pragma: no cover - the pipes failed under us
            self._error = GitError(f"cannot read git's answer: {getattr(e, 'strerror', None) or type(e).__name__}")
            return
        self._done = subprocess.CompletedProcess(self._args, self._proc.returncode, out, err)

    def result(self) -> subprocess.CompletedProcess[bytes]:
        if self._proc is not None:
            self._thread.join()
        if self._error is not None or self._done is None:
            raise self._error or GitError("git stopped answering")
        return self._done


def _ref_name(ref: str) -> str:
    """A ref as people name it: refs/heads/main -> main, refs/remotes/origin/x -> origin/x."""
    for prefix in ("refs/heads/", "refs/tags/", "refs/remotes/", "refs/"):
        if ref.startswith(prefix):
            return ref[len(prefix):]
    return ref
