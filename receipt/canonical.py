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


def fingerprint(change_id: str, subject_key: str, before: Any, after: Any) -> str:
    """First 12 hex of sha256 over id, subject, before, after (canonical JSON).

    The subject is its stable key (kind, scope, name), not its line, so a fingerprint survives
    unrelated edits that move code around.
    """
    payload = {"id": change_id, "subject": subject_key, "before": before, "after": after}
    return sha256_hex(canonical_json(payload))[:12]
