"""The change catalogue: every id documented, lookups fail with one actionable line."""

from __future__ import annotations

import pytest

from receipt import catalogue
from receipt.catalogue import CATALOGUE, explain, get
from receipt.errors import UsageError

# The ids DESIGN.md and the brief promise; the catalogue may hold more, never fewer.
REQUIRED = """
agent.added tool.added prompt.added agent.removed tool.removed prompt.removed
tool.dangerous_gained tool.dangerous_lost tool.approval_lowered tool.approval_raised
agent.trust_tier_lowered agent.trust_tier_raised tool.trust_tier_lowered tool.trust_tier_raised
tool.read_only_lost tool.read_only_gained tool.open_world_gained tool.open_world_lost
tool.idempotent_lost tool.idempotent_gained agent.replayable_lost agent.replayable_gained
agent.deterministic_lost agent.deterministic_gained agent.reach_added agent.reach_removed
agent.model_changed agent.instructions_changed tool.description_changed prompt.description_changed
tool.signature_changed prompt.signature_changed attribute.dynamic surface.extraction_error config.changed
""".split()

DESIGN_DEFAULTS = {
    "agent.added": "info",
    "tool.added": "info",
    "agent.removed": "warning",
    "tool.removed": "warning",
    "tool.dangerous_gained": "regression",
    "tool.dangerous_lost": "info",
    "tool.approval_lowered": "regression",
    "tool.approval_raised": "info",
    "agent.trust_tier_lowered": "regression",
    "agent.trust_tier_raised": "info",
    "tool.read_only_lost": "warning",
    "tool.open_world_gained": "warning",
    "tool.idempotent_lost": "warning",
    "agent.replayable_lost": "warning",
    "agent.deterministic_lost": "warning",
    "agent.replayable_gained": "info",
    "agent.deterministic_gained": "info",
    "agent.reach_added": "info",
    "agent.reach_removed": "info",
    "agent.model_changed": "warning",
    "agent.instructions_changed": "info",
    "tool.description_changed": "info",
    "tool.signature_changed": "warning",
    "attribute.dynamic": "warning",
    "surface.extraction_error": "warning",
    "config.changed": "warning",
}


def test_every_required_id_exists():
    assert sorted(set(REQUIRED) - set(CATALOGUE)) == []


@pytest.mark.parametrize("change_id,severity", sorted(DESIGN_DEFAULTS.items()))
def test_default_severities_match_design(change_id, severity):
    assert CATALOGUE[change_id].default_severity == severity


@pytest.mark.parametrize("change_id", sorted(CATALOGUE))
def test_every_entry_is_documented(change_id):
    kind = CATALOGUE[change_id]
    assert kind.id == change_id
    assert kind.title and kind.title[0].isupper() and not kind.title.endswith(".")
    # One real paragraph: several sentences, no line breaks, ends with a full stop.
    assert len(kind.explanation) >= 120, change_id
    assert kind.explanation.count(". ") >= 1, change_id
    assert "\n" not in kind.explanation and kind.explanation.endswith(".")


def test_ids_are_namespaced_and_sorted():
    assert list(CATALOGUE) == sorted(CATALOGUE)
    for change_id in CATALOGUE:
        scope, _, name = change_id.partition(".")
        assert scope in {"agent", "tool", "prompt", "attribute", "surface", "config", "corvid", "keyring", "template", "text"} and name


def test_get_unknown_id_is_a_one_line_usage_error_with_suggestion():
    with pytest.raises(UsageError) as e:
        get("tool.aproval_lowered")
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith("unknown change id 'tool.aproval_lowered'")
    assert "did you mean 'tool.approval_lowered'" in message
    assert "receipt explain` lists all" in message and "config.changed" not in message  # not every id on one line
    assert e.value.exit_code == 2


def test_explain_shows_id_severity_title_and_explanation():
    text = explain("tool.approval_lowered")
    lines = text.splitlines()
    assert lines[0] == "tool.approval_lowered"
    assert lines[1] == "default severity: regression"
    assert lines[2] == "Tool approval lowered"
    assert lines[3] == ""
    body = " ".join(lines[4:])
    assert body == CATALOGUE["tool.approval_lowered"].explanation
    assert all(len(line) <= 88 for line in lines)
    assert not text.endswith("\n") and not any(line != line.rstrip() for line in lines)


def test_suggest_returns_none_for_nonsense():
    assert catalogue.suggest("zzzz") is None
