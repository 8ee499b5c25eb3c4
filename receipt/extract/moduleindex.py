"""The index of a linked tree's modules, kept with its surface, so that a later run's head makes the
modules it shares with that tree without reading their facts entries.

An incremental receipt's head reads most of its modules lazily (pipeline `_lazy_paths`): of each,
only its names and what `Program` and the dialects read of nearly every module (its peeks: facts.py
`_Pending`). Taken from the entries, that was reading, checking and parsing 38 MB of JSON at 1,500
files for the 4 MB those peeks are. Kept here, per module, as facts.py `index_record` writes them,
they are one file read. A record that needs more than its peeks reads its entry then, checked as
any entry read from the cache directory is (its digest the one recorded here, its binding, its
values' types); an entry missing or not what was indexed raises CorruptEntry there, and the run
reads every file again, eagerly (pipeline `_surface_of`): as if there were no index.

Bound to the very same surface binding as the surface it is stored with (tool code, interpreter,
tree, config) and sealed to the facts digests that surface records, like the screens kept with it
(screenstore.py): a missing, corrupt, truncated or foreign index is ignored, and a module whose
blob or digest is not the one a head has is read from its entry. It only ever accelerates: it holds
what the entries it was made from hold, and the files a change touches are never read from it (the
pipeline extracts those from their blobs).
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

import zstandard

from receipt.extract import gc_paused
from receipt.extract.cache import ZSTD_LEVEL, binding, dumps, entry_file, loads, touch, unpack, write_atomic
from receipt.extract.facts import ModuleFacts, SharedValues, checked_facts_json, facts_from_index, index_record
from receipt.extract.screenstore import digests_seal, kept_file

FORMAT = "modules-v3"  # bump when the layout of a record (facts.py `index_record`) or of the file changes


def _file(root: Path, bound: dict[str, str]) -> Path:
    return kept_file(root, "modules", bound, FORMAT)


def store(root: Path | None, bound: dict[str, str], digests: dict[str, str], files: Sequence[Any]) -> bool:
    """Write the index of modules of the surface stored under `bound`, linked from facts with
    `digests` (`files`, each with its `blob` and `path`), made from their entries in the cache
    directory: a record per module whose entry is there and is exactly the one `digests` records
    for it (each row's place is then its place in that entry)."""
    if root is None:
        return False

    def records() -> Iterator[tuple[list[Any], bytes]]:
        with gc_paused():
            for f in files:
                digest = digests.get(f.path)
                try:
                    raw = unpack(entry_file(root, f.blob, f.path).read_bytes())
                    if digest is None or hashlib.sha256(raw).hexdigest() != digest:
                        continue
                    record = dumps(index_record(loads(raw)["facts"]))
                except Exception:  # noqa: BLE001 - no entry to be had (the disk refused it): not indexed
                    continue
                yield [f.path, f.blob, digest], record

    return write(root, bound, digests, records())


def write(root: Path, bound: dict[str, str], digests: dict[str, str], records: Iterable[tuple[list[Any], bytes]]) -> bool:
    """Write an index file of `records` ([path, blob, digest of its entry], the record's JSON).

    The file: a line of JSON (what it is bound and sealed to); the records' JSON, one after the
    other (a head parses only those of the modules it reads lazily); the JSON of [path, blob,
    digest, size of its record] per module; that JSON's size (8 bytes). One zstandard frame with
    a checksum of its bytes (a corrupt file is refused when read), made record by record: the
    records are never held whole, plain."""
    head = {"bound": bound, "format": FORMAT, "digests": digests_seal(digests)}
    packer = zstandard.ZstdCompressor(level=ZSTD_LEVEL, write_checksum=True).compressobj()
    parts = [packer.compress(json.dumps(head, separators=(",", ":")).encode("ascii") + b"\n")]  # no raw newline in it
    meta = []
    for row, record in records:
        meta.append([*row, len(record)])
        parts.append(packer.compress(record))
    listed = dumps(meta)
    parts += [packer.compress(listed + len(listed).to_bytes(8, "little")), packer.flush()]
    return write_atomic(_file(root, bound), b"".join(parts))


def plain(packed: bytes) -> bytes:
    """What an index file holds, its checksum checked; raises on anything `write` did not make."""
    if not zstandard.get_frame_parameters(packed).has_checksum:
        raise ValueError("not what was stored")
    unpacker = zstandard.ZstdDecompressor().decompressobj()
    data = unpacker.decompress(packed)
    if not unpacker.eof or unpacker.unused_data:
        raise ValueError("not what was stored")
    return data


class ModuleIndex:
    """An index read back: path -> (blob, digest of its entry, where its record is in `data`)."""

    __slots__ = ("root", "records", "data")

    def __init__(self, root: Path, records: dict[str, tuple[str, str, int, int]], data: bytes):
        self.root, self.records, self.data = root, records, data

    def facts(self, blob: str, path: str, shared: SharedValues) -> tuple[ModuleFacts, str] | None:
        """The facts of (blob, path), read lazily from its record, and the digest of its entry; None
        when the index holds no record of that blob at that path, or not a well-formed one."""
        found = self.records.get(path)
        if found is None or found[0] != blob:
            return None
        digest, start, end = found[1:]
        try:
            with gc_paused():
                rec = loads(self.data[start:end])
                facts = facts_from_index(rec, shared, f"{path} (blob {blob})", functools.partial(_entry_json, self.root, blob, path, digest))
            if facts.path != path or not all(e.__class__ is dict for e in facts.entries):
                return None
        except Exception:  # noqa: BLE001 - not a record index_record writes: the entry is read instead
            return None
        touch(entry_file(self.root, blob, path))  # in use: eviction keeps it (a record may read it)
        return facts, digest


def _entry_json(root: Path, blob: str, path: str, digest: str) -> list[Any]:
    """The facts JSON of the entry an index record was made from, checked: raises unless it is
    exactly that entry (the record's rows are its rows)."""
    with gc_paused():
        raw = unpack(entry_file(root, blob, path).read_bytes())
        if hashlib.sha256(raw).hexdigest() != digest:
            raise ValueError("not the entry indexed")
        entry = loads(raw)
        if entry.get("bound") != binding(blob, path):
            raise ValueError("entry computed from something else")
        return checked_facts_json(entry["facts"])


def load(root: Path | None, bound: dict[str, str], digests: dict[str, str]) -> ModuleIndex | None:
    """The index stored for the surface under `bound` linked from facts with `digests`, or None
    (missing, corrupt, sealed for anything else)."""
    if root is None:
        return None
    f = _file(root, bound)
    try:
        data = plain(f.read_bytes())
        end = data.find(b"\n")
        entry = json.loads(data[:end])
        if end < 0 or entry.get("bound") != bound or entry.get("format") != FORMAT:
            raise ValueError("index computed from something else")
        if entry.get("digests") != digests_seal(digests):
            raise ValueError("not what was stored")
        listed = len(data) - 8 - int.from_bytes(data[-8:], "little")  # where the records' list starts
        meta = loads(data[listed:-8])
        records: dict[str, tuple[str, str, int, int]] = {}
        at = end + 1
        for path, blob, digest, size in meta:
            if not (path.__class__ is str and blob.__class__ is str and size.__class__ is int and size > 0) or digests.get(path) != digest:
                raise ValueError("not a module's record")
            records[path] = (blob, digest, at, at + size)
            at += size
        if at != listed:
            raise ValueError("not what was stored")
    except Exception:  # noqa: BLE001 - missing, corrupt or bound to other inputs: the entries are read
        return None
    touch(f)
    return ModuleIndex(root, records, data)
