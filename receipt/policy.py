"""[Change] x Config -> ([Change], Verdict): severity overrides, acceptances, and whether the check fails.

Pure: `today` is a parameter (acceptance expiry), never the wall clock, so the same inputs give
the same verdict on any machine.
"""

from __future__ import annotations

import datetime
from typing import AbstractSet, Sequence

from receipt.config import Config
from receipt.diff import sort_changes
from receipt.models import SEVERITY_ORDER, Accepted, Change, FailOn, Severity, Verdict

DEFAULT_FAIL_ON: FailOn = "regression"


def effective_fail_on(fail_on: FailOn | None, config: Config | None) -> FailOn:
    """Explicit argument (flag or env) > configuration > "regression"."""
    if fail_on is not None:
        return fail_on
    if config is not None:
        return config.fail_on
    return DEFAULT_FAIL_ON


def fails(severity: str, fail_on: FailOn) -> bool:
    return fail_on != "never" and SEVERITY_ORDER[severity] >= SEVERITY_ORDER[fail_on]


_ONE_UP: dict[str, Severity] = {"info": "warning", "warning": "regression", "regression": "regression"}


def apply_policy(
    changes: Sequence[Change],
    config: Config | None,
    fail_on: FailOn | None,
    today: datetime.date,
    escalate: AbstractSet[str] = frozenset(),
) -> tuple[list[Change], Verdict]:
    """Apply the configuration to the diff's changes and decide the verdict.

    - `severity` overrides replace a change's severity (including the computed ones, such as a
      dangerous `tool.added`).
    - An acceptance whose fingerprint matches marks the change accepted while `today <= expires`;
      accepted changes stay in the list but never fail the check. A matching but expired
      acceptance does nothing except raise the flag `acceptance-expired:<fingerprint>`.
    - A change whose fingerprint is in `escalate` (its subject is exercised by more than the base
      config's `traces.escalate_above` share of recorded traffic) goes one severity level up,
      after any override; the flag `traffic-escalated:<n>` says how many.
    - The verdict fails when a non-accepted change is at or above the effective fail_on.
    """
    config = config or Config()
    threshold = effective_fail_on(fail_on, config)
    out: list[Change] = []
    flags: set[str] = set()
    escalated = 0
    for change in changes:
        update: dict[str, object] = {"accepted": None}
        if change.id in config.severity:
            update["severity"] = config.severity[change.id]
        if change.fingerprint in escalate:
            update["severity"] = _ONE_UP[str(update.get("severity", change.severity))]
            escalated += 1
        acceptance = config.acceptance(change.fingerprint)
        if acceptance is not None:
            if acceptance.expires is not None and today > acceptance.expires:
                flags.add(f"acceptance-expired:{change.fingerprint}")
            else:
                expires = acceptance.expires.isoformat() if acceptance.expires else None
                update["accepted"] = Accepted(reason=acceptance.reason, expires=expires)
        out.append(change.model_copy(update=update, deep=True))
    out = sort_changes(out)

    open_ = [c for c in out if c.accepted is None]
    if any(c.severity == "regression" for c in open_):
        flags.add("regressions")
    if any(c.severity == "warning" for c in open_):
        flags.add("warnings")
    # These two say something about the receipt itself, accepted or not: the surface may be
    # incomplete, or the rules that produced it are being changed.
    if any(c.id == "surface.extraction_error" for c in out):
        flags.add("extraction-errors")
    if any(c.id == "config.changed" for c in out):
        flags.add("config-changed")
    if escalated:
        flags.add(f"traffic-escalated:{escalated}")
    accepted = len(out) - len(open_)
    if accepted:
        flags.add(f"accepted:{accepted}")
    ok = not any(fails(c.severity, threshold) for c in open_)
    return out, Verdict(ok=ok, fail_on=threshold, flags=sorted(flags))


__all__ = ["DEFAULT_FAIL_ON", "apply_policy", "effective_fail_on", "fails"]
