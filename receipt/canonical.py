"""Canonical JSON and digests: the one place that decides how bytes are hashed and signed."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(obj: Any) -> bytes:
    """Sorted keys, compact separators, UTF-8, no NaN: the same object always gives the same bytes."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode(
        "utf-8"
    )


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def fingerprint(change_id: str, subject_key: str, before: Any, after: Any, path: str | None = None) -> str:
    """First 12 hex of sha256 over id, subject, its path, before, after (canonical JSON).

    The subject is its stable key (kind, scope, name) and the file it lives in, not its line, so a
    fingerprint survives unrelated edits that move code around within the file, while an
    acceptance of a change in one file never covers the same change in another.
    """
    payload = {"id": change_id, "subject": subject_key, "path": path, "before": before, "after": after}
    return sha256_hex(canonical_json(payload))[:12]


def legacy_fingerprint(change_id: str, subject_key: str, before: Any, after: Any) -> str:
    """The fingerprint before it covered the path (behavior-receipt <= 0.x): only to name the new one
    when an old acceptance no longer matches."""
    payload = {"id": change_id, "subject": subject_key, "before": before, "after": after}
    return sha256_hex(canonical_json(payload))[:12]
