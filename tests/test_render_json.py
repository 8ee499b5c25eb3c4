"""The JSON receipt: the keys DESIGN.md promises, deterministic bytes, surfaces only on request."""

from __future__ import annotations

import json

import pytest

from receipt.models import Receipt
from receipt.render import render, render_json
from tests.render_factories import EVIL, evil_receipt, mixed_receipt


def test_contract_keys_exist() -> None:
    data = json.loads(render_json(mixed_receipt()))
    assert data["schema"] == "behavior-receipt/v1"
    assert set(data["tool"]) >= {"name", "version"} and data["tool"]["name"] == "behavior-receipt"
    for side in ("base", "head"):
        assert set(data[side]) >= {"rev", "sha", "surface_sha256"}
    assert set(data["summary"]) >= {"agents", "tools", "changes", "regressions", "warnings"}
    assert set(data["verdict"]) >= {"ok", "fail_on", "flags"}
    assert data["verdict"]["ok"] is False and data["verdict"]["flags"] == ["extraction-errors"]
    assert len(data["changes"]) == 7
    for ch in data["changes"]:
        assert set(ch) >= {"id", "severity", "subject", "before", "after", "message", "fingerprint"}
        assert ch["severity"] in ("regression", "warning", "info")
        assert set(ch["subject"]) >= {"kind", "name", "path", "line"}
    assert "surfaces" not in data


def test_values_survive_unchanged() -> None:
    data = json.loads(render_json(mixed_receipt()))
    model = next(c for c in data["changes"] if c["id"] == "agent.model_changed")
    assert model["before"] == "gpt-4o" and model["after"] == {"dynamic": "os.environ['MODEL']"}
    accepted = next(c for c in data["changes"] if c["accepted"])
    assert accepted["accepted"] == {"reason": "ticket OPS-12: supervised elsewhere", "expires": "2030-01-01"}
    # No escaping in JSON: consumers get the analysed strings exactly.
    evil = json.loads(render_json(evil_receipt()))
    assert evil["changes"][0]["subject"]["name"] == EVIL


def test_surfaces_only_when_asked() -> None:
    r = mixed_receipt()
    data = json.loads(render_json(r, include_surfaces=True))
    head = data["surfaces"]["head"]
    assert head["schema"] == "behavior-receipt-surface/v1"
    assert {t["name"] for t in head["tools"]} == {"read_doc", "send_mail", "fetch"}
    assert Receipt.model_validate(data).surfaces["head"].tools[0].name == "read_doc"  # round-trips


def test_deterministic_sorted_pretty_utf8() -> None:
    r = evil_receipt("名前 \u00e9 ✓")
    text = render_json(r, include_surfaces=True)
    assert text == render_json(evil_receipt("名前 \u00e9 ✓"), include_surfaces=True)
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert "名前" in text  # not \\u-escaped
    data = json.loads(text)
    assert text == json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert list(data) == sorted(data)


def test_dispatch_by_format() -> None:
    r = mixed_receipt()
    assert render(r, "json") == render_json(r)
    assert render(r, "markdown").startswith("## Behavior receipt")
    assert render(r, "github").startswith("::error ")
    with pytest.raises(ValueError, match="unknown format"):
        render(r, "html")
