"""The policy stage: severity overrides, acceptances with expiry, fail_on precedence, verdict flags."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from receipt.config import Config, parse_config
from receipt.diff import config_change, diff_surfaces, extraction_error_changes, sort_changes
from receipt.models import Change, Entry, ExtractionIssue, Surface
from receipt.policy import apply_policy, effective_fail_on

TODAY = datetime.date(2026, 6, 1)


def mk(kind: str, name: str, **kw: Any) -> Entry:
    return Entry(kind=kind, name=name, path="src/app.py", line=1, dialect="markers", exported=True, **kw)


def surf(*entries: Entry, errors: list[ExtractionIssue] | None = None) -> Surface:
    return Surface(
        rev="r",
        sha="0" * 40,
        agents=[e for e in entries if e.kind == "agent"],
        tools=[e for e in entries if e.kind == "tool"],
        errors=errors or [],
    )


def scenario() -> list[Change]:
    """One regression (approval lowered), one warning (model changed), one info (description changed)."""
    base = surf(mk("tool", "refund", approval="always"), mk("agent", "triage", model="a"),
                mk("tool", "lookup", description_sha256="1" * 64))
    head = surf(mk("tool", "refund", approval="never"), mk("agent", "triage", model="b"),
                mk("tool", "lookup", description_sha256="2" * 64))
    return diff_surfaces(base, head)


def fp(changes: list[Change], change_id: str) -> str:
    return next(c.fingerprint for c in changes if c.id == change_id)


def cfg(toml: str) -> Config:
    c = parse_config(toml, ".receipt.toml")
    assert c is not None
    return c


def test_default_policy_fails_on_regressions():
    changes = scenario()
    out, verdict = apply_policy(changes, Config(), None, TODAY)
    assert out == changes
    assert (verdict.ok, verdict.fail_on, verdict.flags) == (False, "regression", ["regressions", "warnings"])


def test_no_changes_is_ok_with_no_flags():
    out, verdict = apply_policy([], None, None, TODAY)
    assert (out, verdict.ok, verdict.fail_on, verdict.flags) == ([], True, "regression", [])


@pytest.mark.parametrize(
    "flag,config_fail_on,expected",
    [
        (None, None, "regression"),
        (None, "warning", "warning"),
        (None, "never", "never"),
        ("never", "warning", "never"),
        ("warning", "never", "warning"),
        ("regression", "warning", "regression"),
    ],
)
def test_fail_on_precedence(flag, config_fail_on, expected):
    config = Config(fail_on=config_fail_on) if config_fail_on else Config()
    assert effective_fail_on(flag, config) == expected
    _, verdict = apply_policy(scenario(), config, flag, TODAY)
    assert verdict.fail_on == expected


def test_fail_on_thresholds():
    warning_only = [c for c in scenario() if c.severity != "regression"]
    info_only = [c for c in scenario() if c.severity == "info"]
    assert apply_policy(warning_only, None, "regression", TODAY)[1].ok is True
    assert apply_policy(warning_only, None, "warning", TODAY)[1].ok is False
    assert apply_policy(info_only, None, "warning", TODAY)[1].ok is True
    assert apply_policy(scenario(), None, "never", TODAY)[1].ok is True
    # "never" still reports what it found.
    assert apply_policy(scenario(), None, "never", TODAY)[1].flags == ["regressions", "warnings"]


def test_severity_overrides_apply_and_resort():
    changes = scenario()
    config = cfg('[severity]\n"tool.approval_lowered" = "info"\n"tool.description_changed" = "regression"\n')
    out, verdict = apply_policy(changes, config, None, TODAY)
    assert [(c.id, c.severity) for c in out] == [
        ("tool.description_changed", "regression"),
        ("agent.model_changed", "warning"),
        ("tool.approval_lowered", "info"),
    ]
    assert out == sort_changes(out)
    assert verdict.ok is False and verdict.flags == ["regressions", "warnings"]
    # Overrides do not touch fingerprints (acceptances stay valid) and do not mutate the input.
    assert {c.fingerprint for c in out} == {c.fingerprint for c in changes}
    assert next(c for c in changes if c.id == "tool.approval_lowered").severity == "regression"


def test_override_downgrades_computed_severity():
    changes = diff_surfaces(surf(), surf(mk("tool", "rm_rf", dangerous=True)))
    assert changes[0].severity == "regression"
    out, verdict = apply_policy(changes, cfg('severity = {"tool.added" = "info"}\n'), None, TODAY)
    assert out[0].severity == "info" and verdict.ok is True


def test_accepted_change_stays_listed_but_does_not_fail():
    changes = scenario()
    f = fp(changes, "tool.approval_lowered")
    config = cfg(f'[[accept]]\nfingerprint = "{f}"\nreason = "refund capped"\nexpires = 2026-06-01\n')
    out, verdict = apply_policy(changes, config, None, TODAY)  # valid through the expiry day
    accepted = [c for c in out if c.accepted is not None]
    assert [c.id for c in accepted] == ["tool.approval_lowered"]
    assert accepted[0].accepted.model_dump() == {"reason": "refund capped", "expires": "2026-06-01"}
    assert accepted[0].severity == "regression"  # still shown for what it is
    assert (verdict.ok, verdict.flags) == (True, ["accepted:1", "warnings"])
    assert len(out) == len(changes)


def test_accepting_everything_passes_even_on_warning():
    changes = scenario()
    lines = "".join(f'[[accept]]\nfingerprint = "{c.fingerprint}"\nreason = "ok"\nexpires = 2026-12-31\n' for c in changes)
    out, verdict = apply_policy(changes, cfg(lines), "warning", TODAY)
    assert all(c.accepted is not None and c.accepted.expires == "2026-12-31" for c in out)
    assert (verdict.ok, verdict.flags) == (True, ["accepted:3"])


def test_an_acceptance_without_expiry_accepts_but_is_a_warning_row():
    changes = scenario()
    f = fp(changes, "tool.approval_lowered")
    out, verdict = apply_policy(changes, cfg(f'[[accept]]\nfingerprint = "{f}"\nreason = "ok"\n'), None, TODAY)
    assert next(c for c in out if c.fingerprint == f).accepted is not None
    (row,) = [c for c in out if c.id == "config.acceptance_without_expiry"]
    assert row.severity == "warning" and row.after == f and "no expires date" in row.message


def test_expired_acceptance_is_ignored_and_flagged():
    changes = scenario()
    f = fp(changes, "tool.approval_lowered")
    config = cfg(f'[[accept]]\nfingerprint = "{f}"\nreason = "temporary"\nexpires = 2026-05-31\n')
    out, verdict = apply_policy(changes, config, None, TODAY)
    assert all(c.accepted is None for c in out)
    assert verdict.ok is False
    assert verdict.flags == [f"acceptance-expired:{f}", "regressions", "warnings"]


def test_acceptance_for_another_fingerprint_does_nothing():
    config = cfg('[[accept]]\nfingerprint = "000000000000"\nreason = "stale"\nexpires = 2000-01-01\n')
    out, verdict = apply_policy(scenario(), config, None, TODAY)
    assert all(c.accepted is None for c in out) and verdict.flags == ["regressions", "warnings"]


def test_acceptance_survives_the_code_moving_within_its_file_but_not_to_another_file():
    base = surf(mk("tool", "refund", approval="always"))
    first = diff_surfaces(base, surf(mk("tool", "refund", approval="never")))
    config = cfg(f'[[accept]]\nfingerprint = "{first[0].fingerprint}"\nreason = "ok"\nexpires = 2026-12-31\n')
    same_file = Entry(kind="tool", name="refund", path=first[0].subject.path, line=88, dialect="markers", exported=True, approval="never")
    out, verdict = apply_policy(diff_surfaces(base, surf(same_file)), config, None, TODAY)
    assert out[0].accepted is not None and verdict.ok is True
    elsewhere = same_file.model_copy(update={"path": "src/payments/refund.py"})
    out, verdict = apply_policy(diff_surfaces(base, surf(elsewhere)), config, None, TODAY)
    assert out[0].accepted is None and verdict.ok is False


def test_an_old_style_acceptance_names_the_new_fingerprint_and_accepts_nothing():
    from receipt.canonical import legacy_fingerprint

    changes = scenario()
    change = next(c for c in changes if c.id == "tool.approval_lowered")
    old = legacy_fingerprint(change.id, change.subject.key or "", change.before, change.after)
    assert old != change.fingerprint
    out, verdict = apply_policy(changes, cfg(f'[[accept]]\nfingerprint = "{old}"\nreason = "ok"\nexpires = 2026-12-31\n'), None, TODAY)
    assert verdict.ok is False and all(c.accepted is None for c in out)
    (row,) = [c for c in out if c.id == "config.acceptance_outdated"]
    assert (row.before, row.after) == (old, change.fingerprint) and f"accept {change.fingerprint} instead" in row.message


def test_acceptance_does_not_cover_a_different_change_to_the_same_subject():
    base = surf(mk("tool", "refund", approval="always"))
    first = diff_surfaces(base, surf(mk("tool", "refund", approval="conditional")))
    config = cfg(f'[[accept]]\nfingerprint = "{first[0].fingerprint}"\nreason = "conditional is fine"\n')
    worse = diff_surfaces(base, surf(mk("tool", "refund", approval="never")))
    out, verdict = apply_policy(worse, config, None, TODAY)
    assert out[0].accepted is None and verdict.ok is False


def test_extraction_error_and_config_flags_even_when_accepted():
    errors = extraction_error_changes(surf(errors=[ExtractionIssue(path="a.py", line=1, kind="error",
                                                                   reason="syntax-error", message="bad")]))
    changed = config_change(".receipt.toml", None, 'fail_on = "never"\n')
    assert changed is not None
    changes = sort_changes([*errors, changed])
    lines = "".join(f'[[accept]]\nfingerprint = "{c.fingerprint}"\nreason = "known"\nexpires = 2026-12-31\n' for c in changes)
    out, verdict = apply_policy(changes, cfg(lines), "warning", TODAY)
    assert verdict.ok is True
    assert verdict.flags == ["accepted:2", "config-changed", "extraction-errors"]
    _, verdict = apply_policy(changes, None, "warning", TODAY)
    assert verdict.ok is False and verdict.flags == ["config-changed", "extraction-errors", "warnings"]


def test_policy_is_pure_and_deterministic():
    changes = scenario()
    snapshot = [c.model_dump() for c in changes]
    f = fp(changes, "agent.model_changed")
    config = cfg(f'[[accept]]\nfingerprint = "{f}"\nreason = "ok"\n')
    first = apply_policy(changes, config, None, TODAY)
    second = apply_policy(list(reversed(changes)), config, None, TODAY)
    assert first == second
    assert [c.model_dump() for c in changes] == snapshot


def test_previous_acceptance_marks_are_recomputed():
    changes = scenario()
    f = fp(changes, "tool.approval_lowered")
    config = cfg(f'[[accept]]\nfingerprint = "{f}"\nreason = "ok"\nexpires = 2026-01-01\n')
    early, _ = apply_policy(changes, config, None, datetime.date(2025, 12, 31))
    assert any(c.accepted for c in early)
    late, verdict = apply_policy(early, config, None, TODAY)  # same input run again after expiry
    assert not any(c.accepted for c in late) and verdict.ok is False
