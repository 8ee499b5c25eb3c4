"""[Change] x Config -> ([Change], Verdict): severity overrides, acceptances, and whether the check fails.

Pure: `today` is a parameter (acceptance expiry), never the wall clock, so the same inputs give
the same verdict on any machine.
"""

from __future__ import annotations

import datetime
from typing import AbstractSet, Sequence

from receipt.canonical import legacy_fingerprint
from receipt.config import Config
from receipt.diff import make_change, sort_changes
from receipt.models import SEVERITY_ORDER, Accepted, Change, FailOn, Severity, Subject, Verdict

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
    out = sort_changes([*out, *_acceptance_hygiene(out, config)])

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


def _acceptance_subject(fingerprint: str) -> Subject:
    return Subject(kind="config", name=f"accept {fingerprint}", key=f"config:accept:{fingerprint}")


def _acceptance_hygiene(changes: Sequence[Change], config: Config) -> list[Change]:
    """Warnings about the acceptances themselves: one used with no expiry, and one written for the
    old fingerprint (before fingerprints covered the path), naming the fingerprint to use now."""
    out: list[Change] = []
    current = {c.fingerprint for c in changes}
    for change in changes:
        acceptance = config.acceptance(change.fingerprint)
        if change.accepted is not None and acceptance is not None and acceptance.expires is None:
            out.append(
                make_change(
                    "config.acceptance_without_expiry",
                    _acceptance_subject(change.fingerprint),
                    None,
                    change.fingerprint,
                    f"acceptance of {change.fingerprint} ({change.id}) has no expires date: it accepts this change for ever",
                )
            )
    legacy: dict[str, Change] = {}
    for change in changes:
        key = change.subject.key or f"{change.subject.kind}:{change.subject.path}"
        before, after = change.model_dump(mode="json", include={"before", "after"}).values()
        legacy.setdefault(legacy_fingerprint(change.id, key, before, after), change)
    for acceptance in config.accept:
        old = legacy.get(acceptance.fingerprint)
        if acceptance.fingerprint in current or old is None:
            continue
        out.append(
            make_change(
                "config.acceptance_outdated",
                _acceptance_subject(acceptance.fingerprint),
                acceptance.fingerprint,
                old.fingerprint,
                f"acceptance {acceptance.fingerprint} is an old-style fingerprint of {old.id} on '{old.subject.name}'; "
                f"it no longer accepts anything: accept {old.fingerprint} instead",
            )
        )
    return out


__all__ = ["DEFAULT_FAIL_ON", "apply_policy", "effective_fail_on", "fails"]
