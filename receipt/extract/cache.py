"""Content-addressed cache of per-file facts. It only ever accelerates; it never decides.

Every entry is bound to what it was computed from: the git blob id, the path, the extractor version
(a hash of the extraction code) and the interpreter (implementation and exact version: `ast` may
read the same bytes differently in another Python). Those four are part of the file name *and*
stored inside the entry, and checked on read: an entry moved under another name (a rotated or
mixed-up shared cache, a cache restored from another runner's Python) fails the check and the file
is extracted again. The pipeline never takes the facts of a file that differs between base and head
from here (see pipeline.py), so no entry can hide what a change does.

An entry is two JSON documents (written and read with orjson, see `dumps`): a header line (the
binding, the sha256 of the body, and what linking a program reads of the module: its names,
imports and an index of its definitions, see facts.py `header_json`) and the body (the module's
definitions). The file holds each zlib-compressed on its own (together about a fifth of the plain
JSON, smaller than the source), so a run reads a header without inflating the body: a module's
definitions are decoded only when something reads them (`LazyModuleFacts`), from the body bytes
read with the header, checked against the sha256 the header holds and against its index. A body
that fails either check, or fails to decode, is extracted again from its blob (`FactsCache.redo`);
facts whose index differs from the one a program was built from stop that program (`StaleEntry`:
the pipeline links again). Entries are written atomically (temp file + rename): concurrent runs never
see half a file. The directory is bounded: after a run that wrote entries, the least recently used
ones (by modification time; a read refreshes it) are deleted until the total is under
`RECEIPT_CACHE_MAX_MB` (default 256). Deleting the cache is always safe.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import platform
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any, Callable

import orjson

from receipt.extract import EXTRACTOR_VERSION, gc_paused
from receipt.extract.facts import (
    EAGER,
    LAZY,
    LazyModuleFacts,
    ModuleFacts,
    SharedValues,
    body_from_json,
    body_json,
    header_from_json,
    header_json,
    index_of,
    lazy_module,
)

# The exact interpreter: CPython 3.11.7 and 3.12.1 are different keys.
INTERPRETER = f"{sys.implementation.name}-{platform.python_version()}"
FORMAT = "facts-v7"  # layout of an entry; bump when it changes (v7: a header with an index, then the body; see facts.py)
DEFAULT_MAX_MB = 256


def max_cache_bytes() -> int:
    """The directory's bound: `RECEIPT_CACHE_MAX_MB` (decimals allowed; 0 keeps nothing), else the default."""
    raw = os.environ.get("RECEIPT_CACHE_MAX_MB", "").strip()
    try:
        mb = float(raw) if raw else DEFAULT_MAX_MB
    except ValueError:
        mb = DEFAULT_MAX_MB
    if not math.isfinite(mb):
        mb = DEFAULT_MAX_MB
    return max(0, int(mb * 1_000_000))


def binding(blob: str, path: str) -> dict[str, str]:
    """What a facts entry is bound to: stored in it and hashed into its file name."""
    return {"format": FORMAT, "extractor": EXTRACTOR_VERSION, "python": INTERPRETER, "blob": blob, "path": path}


def entry_file(root: Path, blob: str, path: str) -> Path:
    key = hashlib.sha256(json.dumps(binding(blob, path), sort_keys=True).encode()).hexdigest()
    return root / "facts" / key[:2] / f"{key}.zjson"


# Marks an entry written by the standard library's encoder (see `dumps`): JSON text never starts with it.
_STDLIB_JSON = b"J"


def dumps(data: Any) -> bytes:
    """JSON bytes of `data`, read back by `loads` as exactly `data`.

    orjson (C-speed Rust) writes an entry 5x faster than `json.dumps` and reads it 2x faster than
    `json.loads`, on the entries of every cold run (the workers encode, the parent decodes) and of
    every warm one. What it cannot write exactly, it refuses (an integer beyond 64 bits, a string
    with lone surrogates: Python source can spell both); such an entry is written by `json`
    instead, marked, and read back by `json`: orjson would read a big integer back as a float.
    The one value orjson writes inexactly (a non-finite float as null) never reaches it: the facts
    codec spells those as text (facts.py)."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return _STDLIB_JSON + json.dumps(data, separators=(",", ":")).encode("ascii")


def loads(raw: bytes) -> Any:
    if raw[:1] == _STDLIB_JSON:
        return json.loads(raw[1:])
    return orjson.loads(raw)


def encode_entry(blob: str, path: str, facts: ModuleFacts) -> bytes:
    """The entry of (blob, path), uncompressed: its header line (binding, sha256 of the body, the
    module's header), a newline, its body. orjson and the fallback encoder never write a raw newline."""
    with gc_paused():
        body = dumps(body_json(facts))
        head = dumps([binding(blob, path), hashlib.sha256(body).hexdigest(), header_json(facts)])
    return head + b"\n" + body


def entry_digest(entry: bytes) -> str:
    """sha256 of an entry's header line, which holds the sha256 of its body: what the entry says, all of it."""
    return hashlib.sha256(entry[: entry.index(b"\n")]).hexdigest()


class StaleEntry(Exception):
    """A cache entry's body, decoded or extracted again, does not say what its header said, and a
    program was built from that header: it must be linked again (the facts in memory are the fresh ones)."""


def _read_head(head: bytes, blob: str, path: str) -> tuple[str, dict[str, Any], list[Any]]:
    """(sha256 of the body, eager fields, index) of a header line bound to (blob, path); ValueError otherwise."""
    bound, body_sha, header = loads(head)
    if bound != binding(blob, path):
        raise ValueError("entry computed from something else")
    eager, index = header_from_json(header)
    if eager["path"] != path or body_sha.__class__ is not str:
        raise ValueError("entry describes another path")
    return body_sha, eager, index


class _Body:
    """Loads a lazy module's definitions from its entry's body (see LazyModuleFacts): the body
    must have the sha256 its header holds and describe the definitions of the header's index;
    anything else is extracted again from the blob (`FactsCache.redo`)."""

    __slots__ = ("data", "compressed", "sha", "blob", "path", "cache", "module")

    def __init__(self, data: bytes, compressed: bool, sha: str, blob: str, path: str, cache: "FactsCache | None") -> None:
        self.data, self.compressed, self.sha, self.blob, self.path, self.cache = data, compressed, sha, blob, path, cache

    def __call__(self) -> ModuleFacts:
        m: LazyModuleFacts = self.module
        cache = self.cache
        shared = cache.shared if cache is not None else None
        try:
            with gc_paused():
                body = zlib.decompress(self.data) if self.compressed else self.data
                if hashlib.sha256(body).hexdigest() != self.sha:
                    raise ValueError("body is not what the header was written with")
                fields = body_from_json(loads(body), m.index, shared)
        except Exception:  # noqa: BLE001 - a corrupt or foreign body: the file is extracted again
            fields = None
        self.data = b""
        if cache is not None:
            cache.decoded += 1
        if fields is not None:
            return _Loaded(fields)  # type: ignore[return-value]
        redo = cache.redo if cache is not None else None
        fresh = redo(self.blob, self.path) if redo is not None else None
        if fresh is None or any(getattr(fresh, f) != getattr(m, f) for f in EAGER) or index_of(fresh) != m.index:
            if cache is not None and fresh is not None:
                cache.replace(self.blob, self.path, fresh)
            raise StaleEntry(f"{self.path}: its cached facts do not say what their index said")
        if cache is not None:
            cache.rewrite(self.blob, self.path, fresh)
        return fresh


class _Loaded:
    """The LAZY fields decoded from a body, read as attributes (what LazyModuleFacts copies)."""

    __slots__ = LAZY

    def __init__(self, fields: dict[str, Any]) -> None:
        for k in LAZY:
            setattr(self, k, fields[k])


def lazy_entry(entry: bytes, blob: str, path: str, cache: "FactsCache | None" = None) -> LazyModuleFacts:
    """The facts of an (uncompressed) entry, their definitions decoded when first read; ValueError
    when its header is bound to anything but (blob, path) here, or is not a header."""
    at = entry.index(b"\n")
    with gc_paused():
        sha, eager, index = _read_head(entry[:at], blob, path)
    load = _Body(entry[at + 1 :], False, sha, blob, path, cache)
    load.module = m = lazy_module(eager, index, load)
    return m


def decode_entry(raw: bytes, blob: str, path: str, shared: SharedValues | None = None) -> ModuleFacts:
    """The facts of an (uncompressed) entry, all decoded now; ValueError when it is bound to
    anything but (blob, path) here. `shared`: the run's leaf expressions (`FactsCache.shared`)."""
    at = raw.index(b"\n")
    with gc_paused():
        sha, eager, index = _read_head(raw[:at], blob, path)
        body = raw[at + 1 :]
        if hashlib.sha256(body).hexdigest() != sha:
            raise ValueError("body is not what the header was written with")
        return ModuleFacts(**eager, **body_from_json(loads(body), index, shared))


def _split_file(data: bytes) -> tuple[bytes, bytes]:
    """(header line, compressed body) of an entry file: two zlib streams, the header's first."""
    d = zlib.decompressobj()
    head = d.decompress(data)
    if not d.eof or not head.endswith(b"\n") or b"\n" in head[:-1] or not d.unused_data:
        raise ValueError("not an entry file")
    return head[:-1], d.unused_data


def _file_bytes(entry: bytes) -> bytes:
    at = entry.index(b"\n") + 1
    return zlib.compress(entry[:at], 1) + zlib.compress(entry[at:], 1)


def store_entry(root: Path, blob: str, path: str, entry: bytes) -> str:
    """Write an encoded entry to its file (compressed, atomically): "written", "held" (the file
    already says exactly this: a rerun extracts what changed again) or "" (the disk refused)."""
    f = entry_file(root, blob, path)
    if _holds(f, entry):
        return "held"
    return "written" if write_atomic(f, _file_bytes(entry)) else ""


class FactsCache:
    def __init__(self, root: Path | None, redo: Callable[[str, str], ModuleFacts | None] | None = None):
        self.root = root
        self.hits = 0
        self.misses = 0
        self.written = 0
        self.decoded = 0  # lazy modules whose definitions were decoded (or extracted again) in this run
        # (blob, path) -> the file's facts extracted from its blob now (None: cannot): what a lazy
        # module whose body fails its checks is read from instead (set by the pipeline).
        self.redo = redo
        # Base and head share most blobs: a blob read once in this run is not decoded again.
        # Facts are never mutated after extraction, so sharing the object is safe.
        self._memory: dict[tuple[str, str], ModuleFacts] = {}
        # The digest (`entry_digest`) of each entry, as read or written in this run: what a linked
        # surface records of the facts it was computed from (see SurfaceCache).
        self._digests: dict[tuple[str, str], str] = {}
        self.shared = SharedValues()  # refs and constants of every entry decoded in this run
        # Entries worker processes are still writing (see pool.py): each function waits for its
        # share and returns how many files it created.
        self.unsettled: list[Callable[[], int]] = []

    def _encode(self, blob: str, path: str, facts: ModuleFacts) -> bytes:
        return encode_entry(blob, path, facts)

    def digest(self, blob: str, path: str, facts: ModuleFacts) -> str:
        """The digest of the entry these facts make (the same whether read, written or neither)."""
        mine = self._memory.get((blob, path)) is facts
        known = self._digests.get((blob, path)) if mine else None
        if known is None:
            known = entry_digest(self._encode(blob, path, facts))
            if mine:
                self._digests[(blob, path)] = known
        return known

    def get(self, blob: str, path: str, *, disk: bool = True) -> ModuleFacts | None:
        """Facts of (blob, path): from this run's memory, else (with `disk`) from the directory,
        their definitions decoded when first read (`LazyModuleFacts`)."""
        memo = self._memory.get((blob, path))
        if memo is not None:
            self.hits += 1
            return memo
        if self.root is None or not disk:
            return None
        f = entry_file(self.root, blob, path)
        try:
            head, body = _split_file(f.read_bytes())
            with gc_paused():
                sha, eager, index = _read_head(head, blob, path)
        except Exception:  # noqa: BLE001 - missing, corrupt or bound to other inputs: extract again
            self.misses += 1
            return None
        try:
            os.utime(f)  # recently used: eviction keeps it
        except OSError:
            pass
        self.hits += 1
        load = _Body(body, True, sha, blob, path, self)
        load.module = facts = lazy_module(eager, index, load)
        self._memory[(blob, path)] = facts
        self._digests[(blob, path)] = hashlib.sha256(head).hexdigest()
        return facts

    def put(self, blob: str, path: str, facts: ModuleFacts, entry: bytes | None = None, stored: str | None = None) -> None:
        """Keep `facts` for this run and write their entry. `entry`: their encoding, made already
        (by a worker process); `stored`: what that worker's `store_entry` did with it."""
        self._memory[(blob, path)] = facts
        self._digests.pop((blob, path), None)
        if self.root is None:
            return
        data = entry if entry is not None else self._encode(blob, path, facts)
        self._digests[(blob, path)] = entry_digest(data)
        if stored is None:
            stored = store_entry(self.root, blob, path, data)
        if stored == "written":
            self.written += 1

    def put_entry(self, blob: str, path: str, entry: bytes, stored: str | None) -> ModuleFacts:
        """Keep the facts of an entry a worker made (decoded when first read) and count its write."""
        try:
            facts: ModuleFacts = lazy_entry(entry, blob, path, self)
        except Exception:  # noqa: BLE001 - this run's own encoding: cannot happen, decoded eagerly if it does
            facts = decode_entry(entry, blob, path, self.shared)
        self.put(blob, path, facts, entry=entry, stored=stored)
        return facts

    def forget_read(self) -> None:
        """Forget the facts read from the directory in this run: what follows extracts from blobs."""
        read = [k for k, v in self._memory.items() if v.__class__ is LazyModuleFacts]
        for k in read:
            del self._memory[k]
            self._digests.pop(k, None)

    def replace(self, blob: str, path: str, facts: ModuleFacts) -> None:
        """A lazy module's entry did not say what its header said: `facts` (extracted again) stand
        for (blob, path) from now on, and the entry is written anew."""
        self._memory.pop((blob, path), None)
        self.put(blob, path, facts)

    def rewrite(self, blob: str, path: str, facts: ModuleFacts) -> None:
        """A lazy module's body failed its checks but extracting it again gave the facts its header
        describes: the lazy module keeps those; the entry is written anew."""
        memo = self._memory.get((blob, path))
        self._memory[(blob, path)] = facts
        self.put(blob, path, facts)
        if memo is not None:
            self._memory[(blob, path)] = memo  # the object programs hold (it takes `facts`' definitions)

    def settle(self) -> None:
        """Wait until the entries worker processes are still writing are on disk."""
        while self.unsettled:
            self.written += self.unsettled.pop()()

    def evict(self) -> None:
        """Keep the directory under its size bound: least recently used entries go first."""
        self.settle()
        if self.root is None or not self.written:
            return
        prune(self.root, max_cache_bytes())


def _holds(f: Path, data: bytes) -> bool:
    """True when entry file `f` exists and decompresses to exactly `data` (its use is refreshed)."""
    try:
        head, body = _split_file(f.read_bytes())
        if head + b"\n" + zlib.decompress(body) != data:
            return False
        os.utime(f)
        return True
    except (OSError, ValueError, zlib.error):
        return False


def write_atomic(f: Path, data: bytes) -> bool:
    """Temp file + rename: a concurrent run sees the old entry or the new one, never half of one.
    A read-only or full disk must not fail a receipt (the cache is an optimisation): False then."""
    tmp = None
    try:
        f.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=f.parent, prefix=".tmp-", suffix=f.suffix)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, f)
        return True
    except OSError:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return False


def prune(root: Path, max_bytes: int) -> int:
    """Delete the least recently used entries (any format or version) until `root` holds at most
    `max_bytes` (to 80% of it, so the next runs do not prune again at once). Returns bytes freed."""
    found: list[tuple[float, int, str]] = []
    total = 0
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            p = os.path.join(dirpath, name)
            try:
                st = os.stat(p)
            except OSError:
                continue
            total += st.st_size
            found.append((st.st_mtime, st.st_size, p))
    if total <= max_bytes:
        return 0
    target = int(max_bytes * 0.8)
    freed = 0
    for _mtime, size, p in sorted(found):
        if total - freed <= target:
            break
        try:
            os.unlink(p)
            freed += size
        except OSError:
            pass
    return freed


def default_cache_dir(git_dir: Path) -> Path | None:
    env = os.environ.get("RECEIPT_CACHE_DIR")
    if env is not None:
        return Path(env) if env not in ("", "0", "off", "none") else None
    return git_dir / "behavior-receipt-cache"


@functools.lru_cache(maxsize=1)
def _tool_code_version() -> str:
    """A hash of every module of the tool: a linked surface depends on dialects and linker too.
    Once per process: a receipt binds two surfaces (reading every module again cost ~5 ms)."""
    h = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for f in sorted(package.rglob("*.py")):
        h.update(str(f.relative_to(package)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


class SurfaceCache:
    """Linked surfaces of whole trees, bound to exactly what they were computed from.

    The binding is the tool's code (every module), the interpreter, the configuration that shapes
    a surface, and every listed file by path and blob id (plus what the listing skipped): the same
    tree read by the same tool. It is stored in the entry and checked on read like the facts
    entries. Each entry also records, per file, the digest of the facts entry it was linked from
    (`FactsCache.digest`). The pipeline reuses a surface for a revision of a receipt only when the
    facts of every file that differs between the two revisions, extracted from their blobs in the
    run, have exactly the recorded digests (see pipeline.py): what the change touches is always read
    from git, and an entry computed from anything else is never used for it.

    An entry is a JSON header line (binding, digests, the name and length of each part, the sha256
    of the parts) and then the parts: the surface's fields, each as canonical JSON, in that order.
    The pipeline digests a surface from these very bytes instead of encoding it again; the stored
    sha256 is checked against them on read, so a truncated, corrupt or partly edited entry is linked
    again, never read.
    """

    def __init__(self, root: Path | None):
        self.root = root
        self._code: str | None = None

    def binding(self, listing_key: str, settings: object) -> dict[str, str]:
        if self._code is None:
            self._code = _tool_code_version()
        return {"format": "surface-v3", "tool": self._code, "python": INTERPRETER, "tree": listing_key, "settings": json.dumps(settings, sort_keys=True)}

    def _file(self, bound: dict[str, str]) -> Path:
        assert self.root is not None
        key = hashlib.sha256(json.dumps(bound, sort_keys=True).encode()).hexdigest()
        return self.root / "surfaces" / key[:2] / f"{key}.zjson"

    def get(self, bound: dict[str, str]) -> tuple[dict[str, bytes], dict[str, str]] | None:
        """({field: its canonical JSON}, {path: facts digest}) stored under exactly this binding, or None."""
        if self.root is None:
            return None
        f = self._file(bound)
        try:
            data = zlib.decompress(f.read_bytes())
            head, sep, body = data.partition(b"\n")
            with gc_paused():
                entry = json.loads(head)
            if not sep or entry.get("bound") != bound:
                raise ValueError("entry computed from something else")
            digests, lengths = entry["digests"], entry["parts"]
            if not isinstance(digests, dict) or not isinstance(lengths, list):
                raise ValueError("not a surface entry")
            if entry.get("sha256") != hashlib.sha256(body).hexdigest():
                raise ValueError("parts are not what was stored")
            parts: dict[str, bytes] = {}
            at = 0
            for name, size in lengths:
                if not isinstance(name, str) or not isinstance(size, int) or size < 0 or name in parts:
                    raise ValueError("not a surface entry")
                parts[name], at = body[at : at + size], at + size
            if at != len(body):
                raise ValueError("parts are not what was stored")
        except Exception:  # noqa: BLE001 - missing, corrupt or bound to other inputs: link again
            return None
        try:
            os.utime(f)  # recently used: eviction keeps it
        except OSError:
            pass
        return parts, digests

    def put(self, bound: dict[str, str], parts: dict[str, bytes], digests: dict[str, str]) -> bool:
        """Store a linked surface given as {field: canonical JSON}; True when an entry was written."""
        if self.root is None:
            return False
        body = b"".join(parts.values())
        head = {"bound": bound, "digests": digests, "parts": [[k, len(v)] for k, v in parts.items()], "sha256": hashlib.sha256(body).hexdigest()}
        text = json.dumps(head, separators=(",", ":")).encode("utf-8")  # ASCII: no raw newline in it
        return write_atomic(self._file(bound), zlib.compress(text + b"\n" + body, 1))
