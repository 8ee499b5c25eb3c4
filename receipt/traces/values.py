"""Typed reads of untrusted JSON values: a wrong type is "absent", never an exception."""

from __future__ import annotations

import datetime as _dt
from typing import Any

_MAX_NS = 2**63 - 1


def text(value: Any) -> str | None:
    """A non-empty string, else None."""
    return value if isinstance(value, str) and value else None


def failed(value: Any) -> bool:
    """An error field that says something went wrong: a non-empty string, object or list, or true."""
    if value is None or value is False:
        return False
    if isinstance(value, (str, list, dict)):
        return bool(value)
    return value is True


def nanos(value: Any) -> int | None:
    """OTLP time: unix nanoseconds as a decimal string (uint64 in JSON) or an integer."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        if not value.isascii() or not value.isdigit() or len(value) > 20:
            return None
        value = int(value)
    if isinstance(value, int) and 0 < value <= _MAX_NS:
        return value
    return None


def millis(value: Any) -> int | None:
    """Unix milliseconds (integer) -> nanoseconds."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value <= _MAX_NS // 1_000_000:
        return value * 1_000_000
    return None


def iso_nanos(value: Any) -> int | None:
    """An ISO-8601 timestamp with a zone (e.g. 2026-01-02T03:04:05Z) -> unix nanoseconds."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        t = _dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if t.tzinfo is None:
        return None  # a local time would make the receipt depend on the machine's zone
    delta = t - _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
    ns = (delta.days * 86400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1000
    return ns if 0 < ns <= _MAX_NS else None


def iso(ns: int | None) -> str | None:
    """Unix nanoseconds -> "YYYY-MM-DDTHH:MM:SSZ" (UTC, second resolution), as the receipt shows times."""
    if ns is None:
        return None
    t = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc) + _dt.timedelta(seconds=ns // 1_000_000_000)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")
