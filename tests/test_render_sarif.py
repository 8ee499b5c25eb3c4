"""`--format sarif`: valid SARIF 2.1.0 (checked against the official OASIS schema, vendored in
tests/data), one result per change with the change id as rule, level from severity, location and
the change fingerprint as a partial fingerprint."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from receipt.render.sarif import FINGERPRINT_KEY, render_sarif
from tests.render_factories import EVIL, evil_receipt, mixed_receipt, receipt

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


def _validate(text: str) -> dict:
    log = json.loads(text)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    return log


def test_mixed_receipt_is_valid_sarif_with_one_result_per_change() -> None:
    r = mixed_receipt()
    log = _validate(render_sarif(r))
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    results = run["results"]
    assert len(results) == len(r.changes)
    rules = run["tool"]["driver"]["rules"]
    for change, result in zip(r.changes, results):
        assert result["ruleId"] == change.id
        assert rules[result["ruleIndex"]]["id"] == change.id
        assert result["level"] == {"regression": "error", "warning": "warning", "info": "note"}[change.severity]
        assert result["partialFingerprints"] == {FINGERPRINT_KEY: change.fingerprint}
        loc = result["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == change.subject.path  # plain paths need no encoding
        assert loc["region"]["startLine"] == change.subject.line
    accepted = [res for res, c in zip(results, r.changes) if c.accepted is not None]
    assert accepted and accepted[0]["suppressions"][0]["kind"] == "external"
    assert "explain" not in rules[0]["fullDescription"]["text"] or rules[0]["fullDescription"]["text"]


def test_no_changes_is_a_valid_empty_run() -> None:
    log = _validate(render_sarif(receipt([])))
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


def test_hostile_strings_stay_valid_and_visible() -> None:
    r = evil_receipt(EVIL + "\u202e\x1b[31m")
    text = render_sarif(r)
    _validate(text)
    assert "\u202e" not in text and "\x1b" not in text


def test_deterministic() -> None:
    assert render_sarif(mixed_receipt()) == render_sarif(mixed_receipt())
