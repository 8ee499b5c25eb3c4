"""Content-addressed cache of per-file facts. It only ever accelerates; it never decides.

Every entry is bound to what it was computed from: the git blob id, the path, the extractor version
(a hash of the extraction code) and the interpreter (implementation and exact version: `ast` may
read the same bytes differently in another Python). Those four are part of the file name *and*
stored inside the entry, and checked on read: an entry moved under another name (a rotated or
mixed-up shared cache, a cache restored from another runner's Python) fails the check and the file
is extracted again. The pipeline never takes the facts of a file that differs between base and head
from here (see pipeline.py), so no entry can hide what a change does.

Entries are zstandard-compressed JSON (about a sixth of the plain JSON, smaller than the source;
written and read with orjson, see `dumps`; see `pack` for why zstandard), written atomically (temp
file + rename): concurrent runs never see half a file. The directory is bounded: after a run that wrote entries, the least recently used
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
import threading
import zlib
from pathlib import Path
from typing import Any, Callable

import orjson
import zstandard

from receipt.extract import EXTRACTOR_VERSION, gc_paused
from receipt.extract.facts import ModuleFacts, SharedValues, facts_from_json, facts_to_json

# The exact interpreter: CPython 3.11.7 and 3.12.1 are different keys.
INTERPRETER = f"{sys.implementation.name}-{platform.python_version()}"
FORMAT = "facts-v11"  # layout of an entry; bump when it changes (v6: a flat table of expressions, see facts.py; v7: a call's `**x` kept; v8: a function's raises guarded by try handlers; v9: assignments' and definitions' guards; v10: parameters a function changes in place; v11: zstandard, not zlib)
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
    """The entry of (blob, path): its binding and the facts, as JSON (uncompressed)."""
    with gc_paused():
        return dumps({"bound": binding(blob, path), "facts": facts_to_json(facts)})


def decode_entry(
    raw: bytes, blob: str, path: str, shared: SharedValues | None = None, lazy: bool = False, *, made: bool = False, packed: bytes | None = None,
) -> ModuleFacts:
    """The facts of an entry; ValueError when it is bound to anything but (blob, path) here.
    `shared`: the run's leaf expressions (`FactsCache.shared`), reused instead of made again.
    `lazy`: read lazily (facts.py `facts_from_json`): its expressions are decoded when first read
    (a CorruptEntry if they turn out malformed then). `packed`: `raw` as stored (compressed): a lazy
    read keeps it instead of the parsed JSON, parsed again if a record is read (`facts_from_json`).
    `made`: `raw` is an entry `encode_entry` made in this run (a pool worker's, handed to this
    process by the worker itself), never bytes read from the cache directory: its values' types
    are not checked again (facts.py `facts_from_json(check=False)`). The directory is not
    trusted: `FactsCache.get` never says so."""
    with gc_paused():
        entry = loads(raw)
        if entry.get("bound") != binding(blob, path):
            raise ValueError("entry computed from something else")
        # values of another type than the extractor writes raise
        reread = functools.partial(_facts_json, packed) if lazy and packed is not None else None
        facts = facts_from_json(entry["facts"], shared, lazy, f"{path} (blob {blob})", check=not made, reread=reread)
    if facts.path != path:
        raise ValueError("entry describes another path")
    if facts.entries.__class__ is not list or not all(e.__class__ is dict for e in facts.entries):
        raise ValueError("descriptor entries are not a list of objects")
    return facts


def _facts_json(packed: bytes) -> Any:
    """The facts JSON of an entry as stored: what `decode_entry` read, again."""
    with gc_paused():
        return loads(unpack(packed))["facts"]


def store_entry(root: Path, blob: str, path: str, entry: bytes) -> str:
    """Write an encoded entry to its file (compressed, atomically): "written", "held" (the file
    already says exactly this: a rerun extracts what changed again) or "" (the disk refused)."""
    f = entry_file(root, blob, path)
    if _holds(f, entry):
        return "held"
    return "written" if write_atomic(f, pack(entry)) else ""


# zstandard, not zlib: on the entries of a 1,500-file tree (38 MB of JSON), level 3 compresses
# them 2x faster than zlib's fastest level, decompresses them 3x faster (0.03 vs 0.08 s of every
# incremental receipt, which reads every entry of the head) and is 10% smaller. Its contexts are
# not safe to share between threads: one of each per thread.
ZSTD_LEVEL = 3
_codecs = threading.local()


def pack(entry: bytes) -> bytes:
    """An encoded entry as its file holds it."""
    packer = getattr(_codecs, "packer", None)
    if packer is None:
        packer = _codecs.packer = zstandard.ZstdCompressor(level=ZSTD_LEVEL)
    return packer.compress(entry)


def unpack(packed: bytes) -> bytes:
    """The encoded entry a file holds (`pack`'s input); raises on anything `pack` did not make."""
    unpacker = getattr(_codecs, "unpacker", None)
    if unpacker is None:
        unpacker = _codecs.unpacker = zstandard.ZstdDecompressor()
    return unpacker.decompress(packed)


def store_packed(root: Path, blob: str, path: str, packed: bytes) -> str:
    """`store_entry` for an entry compressed already (`pack`): what a worker keeps to write later
    is a fifth of the entry's size (see pool.py)."""
    f = entry_file(root, blob, path)
    try:
        found = f.read_bytes()
        if found == packed or unpack(found) == unpack(packed):
            os.utime(f)
            return "held"
    except (OSError, zstandard.ZstdError, MemoryError):
        pass
    return "written" if write_atomic(f, packed) else ""


class FactsCache:
    def __init__(self, root: Path | None):
        self.root = root
        self.hits = 0
        self.misses = 0
        self.written = 0
        # Base and head share most blobs: a blob read once in this run is not decoded again.
        # Facts are never mutated after extraction, so sharing the object is safe.
        self._memory: dict[tuple[str, str], ModuleFacts] = {}
        # sha256 of each entry's bytes, as read or written in this run: what a linked surface
        # records of the facts it was computed from (see SurfaceCache).
        self._digests: dict[tuple[str, str], str] = {}
        self.shared = SharedValues()  # refs and constants of every entry decoded in this run
        # Entries worker processes are still writing (see pool.py): each function waits for its
        # share and returns how many files it created.
        self.unsettled: list[Callable[[], int]] = []
        # True: a pool's workers write their entries only once `flush` (or `settle`) says so (a
        # receipt holds them while both revisions are linked, see pipeline.build_receipt).
        self.hold_writes = False

    def _encode(self, blob: str, path: str, facts: ModuleFacts) -> bytes:
        return encode_entry(blob, path, facts)

    def digest(self, blob: str, path: str, facts: ModuleFacts) -> str:
        """sha256 of the entry these facts make (the same bytes whether read, written or neither)."""
        mine = self._memory.get((blob, path)) is facts
        known = self._digests.get((blob, path)) if mine else None
        if known is None:
            known = hashlib.sha256(self._encode(blob, path, facts)).hexdigest()
            if mine:
                self._digests[(blob, path)] = known
        return known

    def get(self, blob: str, path: str, *, disk: bool = True, lazy: bool = False, index: Any = None) -> ModuleFacts | None:
        """Facts of (blob, path): from this run's memory, else (with `disk`) from the directory.
        `lazy`: an entry read from the directory is decoded lazily (`decode_entry`); the caller
        catches the CorruptEntry that reading such facts may raise (pipeline `_surface_of`).
        `index` (with `lazy`): a linked tree's module index (moduleindex.py), whose record of
        (blob, path), when it holds one, stands for the entry."""
        memo = self._memory.get((blob, path))
        if memo is not None:
            self.hits += 1
            return memo
        if self.root is None or not disk:
            return None
        indexed = index.facts(blob, path, self.shared) if index is not None and lazy else None
        if indexed is not None:
            self.hits += 1
            self._memory[(blob, path)], self._digests[(blob, path)] = indexed
            return indexed[0]
        f = entry_file(self.root, blob, path)
        try:
            packed = f.read_bytes()
            raw = unpack(packed)
            facts = decode_entry(raw, blob, path, self.shared, lazy, packed=packed)
        except Exception:  # noqa: BLE001 - missing, corrupt or bound to other inputs: extract again
            self.misses += 1
            return None
        touch(f)
        self.hits += 1
        self._memory[(blob, path)] = facts
        self._digests[(blob, path)] = hashlib.sha256(raw).hexdigest()
        return facts

    def put(self, blob: str, path: str, facts: ModuleFacts, entry: bytes | None = None, stored: str | None = None, digest: str | None = None) -> None:
        """Keep `facts` for this run and write their entry. `entry`: their encoding, made already
        (by a worker process); `stored`: what that worker's `store_entry` did with it; `digest`:
        the sha256 of `entry`, when the worker computed it."""
        self._memory[(blob, path)] = facts
        self._digests.pop((blob, path), None)
        if self.root is None:
            return
        data = entry if entry is not None else self._encode(blob, path, facts)
        self._digests[(blob, path)] = digest if digest is not None and entry is not None else hashlib.sha256(data).hexdigest()
        if stored is None:
            stored = store_entry(self.root, blob, path, data)
        if stored == "written":
            self.written += 1

    def flush(self) -> None:
        """Let worker processes write the entries they hold (see pool.Writes), without waiting."""
        for writes in self.unsettled:
            start = getattr(writes, "start", None)
            if start is not None:
                try:
                    start()
                except Exception:  # noqa: BLE001 - a broken pool: settle says what was written
                    pass

    def forget_lazy(self) -> None:
        """Forget the facts read lazily: read again, eagerly, a malformed entry is a miss."""
        for key, facts in list(self._memory.items()):
            if facts.lazy():
                del self._memory[key]
                self._digests.pop(key, None)

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
        if unpack(f.read_bytes()) != data:
            return False
        os.utime(f)
        return True
    except (OSError, zstandard.ZstdError, MemoryError):
        return False


def touch(f: Path) -> None:
    """Mark entry file `f` recently used: eviction (oldest first) keeps it."""
    try:
        os.utime(f)
    except OSError:
        pass


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
        touch(f)
        return parts, digests

    def put(self, bound: dict[str, str], parts: dict[str, bytes], digests: dict[str, str]) -> bool:
        """Store a linked surface given as {field: canonical JSON}; True when an entry was written."""
        if self.root is None:
            return False
        body = b"".join(parts.values())
        head = {"bound": bound, "digests": digests, "parts": [[k, len(v)] for k, v in parts.items()], "sha256": hashlib.sha256(body).hexdigest()}
        text = json.dumps(head, separators=(",", ":")).encode("utf-8")  # ASCII: no raw newline in it
        return write_atomic(self._file(bound), zlib.compress(text + b"\n" + body, 1))
