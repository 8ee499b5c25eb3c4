"""Content-addressed cache of per-file facts: key = extractor version + blob id + path.

Writes are atomic (temp file + rename) so concurrent runs never see half a file; an unreadable or
corrupt entry is ignored and rebuilt. The cache only ever speeds things up: deleting it is safe.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from receipt.extract import EXTRACTOR_VERSION, gc_paused
from receipt.extract.facts import ModuleFacts, facts_from_json, facts_to_json


class FactsCache:
    def __init__(self, root: Path | None):
        self.root = root
        self.hits = 0
        self.misses = 0
        # Base and head share most blobs: a blob read once in this run is not decoded again.
        # Facts are never mutated after extraction, so sharing the object is safe.
        self._memory: dict[tuple[str, str], ModuleFacts] = {}

    def _file(self, blob: str, path: str) -> Path:
        assert self.root is not None
        key = hashlib.sha256(f"{EXTRACTOR_VERSION}\0{blob}\0{path}".encode()).hexdigest()
        return self.root / EXTRACTOR_VERSION / key[:2] / f"{key}.json"

    def get(self, blob: str, path: str) -> ModuleFacts | None:
        memo = self._memory.get((blob, path))
        if memo is not None:
            self.hits += 1
            return memo
        if self.root is None:
            return None
        f = self._file(blob, path)
        try:
            raw = f.read_bytes()
            with gc_paused():
                facts = facts_from_json(json.loads(raw))
        except FileNotFoundError:
            self.misses += 1
            return None
        except Exception:  # noqa: BLE001 - corrupt entry: rebuild it
            self.misses += 1
            return None
        if facts.path != path:
            self.misses += 1
            return None
        self.hits += 1
        self._memory[(blob, path)] = facts
        return facts

    def put(self, blob: str, path: str, facts: ModuleFacts) -> None:
        self._memory[(blob, path)] = facts
        if self.root is None:
            return
        f = self._file(blob, path)
        try:
            f.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=f.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                # dumps, not dump: json.dump streams through the pure-Python encoder (same text, slower).
                with gc_paused():
                    text = json.dumps(facts_to_json(facts), separators=(",", ":"))
                out.write(text)
            os.replace(tmp, f)
        except OSError:
            # A read-only or full disk must not fail a receipt; the cache is an optimisation.
            try:
                os.unlink(tmp)  # type: ignore[possibly-undefined]
            except (OSError, UnboundLocalError):
                pass


def default_cache_dir(git_dir: Path) -> Path | None:
    env = os.environ.get("RECEIPT_CACHE_DIR")
    if env is not None:
        return Path(env) if env not in ("", "0", "off", "none") else None
    return git_dir / "behavior-receipt-cache"
