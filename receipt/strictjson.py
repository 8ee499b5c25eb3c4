"""Strict JSON for the files a pull request can write and we must not be fooled or crashed by
(Corvid descriptors, keyrings): standard JSON only, no NaN/Infinity, no duplicate keys (last-key-wins
would let two readers see two different values), bounded numbers."""

from __future__ import annotations

import json
import math
from typing import Any

# Numbers in the files we parse are versions, lines and budgets: 18 digits is far beyond any of
# them, and a bound keeps a hostile 5,000-digit number from reaching int() (which refuses > 4,300 digits).
MAX_NUMBER_CHARS = 32


class StrictJSONError(ValueError):
    """The text is not strict JSON; the message says why (one line, no input echoed at length)."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Last-key-wins would let two readers see two different `dangerous` values.
    seen: set[str] = set()
    for k, _ in pairs:
        if k in seen:
            raise StrictJSONError(f"duplicate key {k!r}")
        seen.add(k)
    return dict(pairs)


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > 18:
        raise StrictJSONError(f"number of {len(text)} digits is out of range")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise StrictJSONError(f"number of {len(text)} characters is out of range")
    value = float(text)
    if not math.isfinite(value):
        raise StrictJSONError(f"number {text} is out of range")
    return value


def _no_constant(name: str) -> Any:
    raise StrictJSONError(f"{name} is not a JSON number")


def strict_json(data: bytes) -> Any:
    """Standard JSON only: no NaN/Infinity, no duplicate keys, bounded numbers."""
    return json.loads(
        data.decode("utf-8"),
        object_pairs_hook=_pairs,
        parse_int=_parse_int,
        parse_float=_parse_float,
        parse_constant=_no_constant,
    )


