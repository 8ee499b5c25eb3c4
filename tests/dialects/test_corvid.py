"""Corvid ABI descriptors: agents, tools and prompts of a Corvid program, with Corvid-only attributes."""

from __future__ import annotations

import copy
import json

from receipt.dialects.corvid import parse_descriptor, type_text
from receipt.models import Dynamic
from tests.helpers import link_files, surface_of

STRING = {"scalar": "String"}
FLOAT = {"scalar": "Float"}

DESCRIPTOR = {
    "corvid_abi_version": 1,
    "compiler_version": "0.9.0",
    "source_path": "src/refunds.cor",
    "generated_at": "2026-01-01T00:00:00Z",
    "agents": [
        {
            "name": "refund_bot",
            "symbol": "corvid_agent_refund_bot",
            "source_span": {"start": 10, "end": 400},
            "source_line": 12,
            "params": [{"name": "ticket", "type": {"struct": "Ticket"}, "ownership": {"mode": "borrowed"}}],
            "return_type": {"grounded": {"inner": {"struct": "Decision"}}},
            "return_ownership": {"mode": "owned"},
            "effects": {"trust_tier": "human_required", "reversibility": "reversible"},
            "attributes": {"replayable": True, "deterministic": False, "dangerous": False, "pub_extern_c": True},
            "budget": {"usd_per_call": 0.25},
            "dispatch": {"kind": "route", "route_arms": [{"model": "gpt-5", "matcher": "default"}]},
            "approval_contract": {
                "required": True,
                "labels": [{"label": "IssueRefund", "args": [], "reversibility": "reversible", "required_tier": "human_required"}],
            },
            "provenance": {"returns_grounded": True, "grounded_param_deps": ["ticket"]},
        }
    ],
    "tools": [
        {
            "name": "issue_refund",
            "symbol": "issue_refund",
            "params": [{"name": "order_id", "type": STRING}, {"name": "amount", "type": FLOAT}],
            "return_type": {"result": {"ok": STRING, "err": STRING}},
            "effects": {"trust_tier": "human_required", "reversibility": "reversible", "data": "write"},
            "dangerous": True,
            "contract": {"domain_effects": [{"kind": "money", "target": "customer", "source_effect": "refund"}], "requires_approval": "IssueRefund"},
        }
    ],
    "prompts": [
        {"name": "summarize", "source_span": {"start": 1, "end": 5}, "params": [{"name": "text", "type": STRING}], "return_type": STRING, "effects": {}}
    ],
    "approval_sites": [
        {
            "label": "IssueRefund",
            "declared_at": {"source_span": {"start": 200, "end": 240}},
            "agent_context": "refund_bot",
            "dangerous_targets": ["issue_refund"],
            "effects": {},
            "required_tier": "human_required",
        }
    ],
}


def files(doc: dict) -> dict[str, bytes]:
    return {"build/refunds.corvid-abi.json": json.dumps(doc).encode()}


def test_agents_tools_prompts_and_reach() -> None:
    s = surface_of(files(DESCRIPTOR))
    agent, tool, prompt = s["agent:refund_bot"], s["tool:issue_refund"], s["prompt:summarize"]
    assert all(e.exported and e.dialect == "corvid" for e in (agent, tool, prompt))
    assert agent.line == 12 and agent.path == "build/refunds.corvid-abi.json"
    assert (agent.approval, agent.trust_tier, agent.trust_declared) == ("always", "human_required", True)
    assert agent.replayable is True and agent.deterministic is False and agent.model == "gpt-5"
    assert agent.reaches == ["tool:issue_refund"]
    assert agent.extra["corvid.returns_grounded"] is True
    assert agent.extra["corvid.budget_usd_per_call"] == 0.25
    assert agent.extra["corvid.approval_labels"] == {"IssueRefund": {"required_tier": "human_required", "reversibility": "reversible"}}
    assert agent.extra["corvid.ownership"] == {"param:ticket": "borrowed", "return": "owned"}
    assert (tool.dangerous, tool.approval) == (True, "always")
    assert tool.extra["corvid.domain_effects"] == ["money:customer"]
    assert [p.name for p in tool.signature.params] == ["order_id", "amount"]  # type: ignore[union-attr]
    assert tool.signature.returns == "Result<String, String>"  # type: ignore[union-attr]


def test_type_text() -> None:
    assert type_text({"list": {"element": {"option": {"inner": STRING}}}}) == "List<Option<String>>"
    assert type_text({"resume_token": {"inner": FLOAT}}) == "ResumeToken<Float>"


def test_unknown_trust_tier_is_dynamic_not_guessed() -> None:
    doc = copy.deepcopy(DESCRIPTOR)
    doc["agents"][0]["effects"]["trust_tier"] = "galaxy_brain"
    agent = surface_of(files(doc))["agent:refund_bot"]
    assert isinstance(agent.trust_tier, Dynamic)


def test_malformed_descriptors_are_errors_not_crashes() -> None:
    assert parse_descriptor("a.corvid-abi.json", b"{not json").error["reason"] == "invalid-json"  # type: ignore[index]
    assert parse_descriptor("a.corvid-abi.json", b"[]").error["reason"] == "invalid-descriptor"  # type: ignore[index]
    assert parse_descriptor("a.corvid-abi.json", b'{"corvid_abi_version": 99}').error["reason"] == "unsupported-version"  # type: ignore[index]
    assert parse_descriptor("a.corvid-abi.json", b'{"corvid_abi_version": 1, "agents": [{"nope": 1}]}').error["reason"] == "invalid-descriptor"  # type: ignore[index]
    assert parse_descriptor("a.corvid-abi.json", b"\xff\xfe").error["reason"] == "non-utf8"  # type: ignore[index]


def test_descriptor_sits_beside_python_without_interference() -> None:
    entries, issues = link_files({**files(DESCRIPTOR), "app/main.py": "x = 1\n"})
    assert {e.key for e in entries} == {"agent:refund_bot", "tool:issue_refund", "prompt:summarize"}
    assert issues == []


def _changes(before: dict, after: dict) -> dict[str, object]:
    from receipt.diff import diff_surfaces
    from receipt.models import Surface

    def surface(doc: dict) -> Surface:
        entries, _ = link_files(files(doc))
        return Surface(
            rev="r", sha="s",
            agents=[e for e in entries if e.kind == "agent"],
            tools=[e for e in entries if e.kind == "tool"],
            prompts=[e for e in entries if e.kind == "prompt"],
        )

    return {c.id: c for c in diff_surfaces(surface(before), surface(after))}


def test_corvid_catalogue_changes() -> None:
    after = copy.deepcopy(DESCRIPTOR)
    agent, tool = after["agents"][0], after["tools"][0]
    agent["approval_contract"]["labels"][0]["required_tier"] = "autonomous"
    agent["approval_contract"]["labels"][0]["reversibility"] = "irreversible"
    agent["provenance"]["returns_grounded"] = False
    agent["params"][0]["ownership"]["mode"] = "shared"
    agent["budget"]["usd_per_call"] = 5.0
    tool["contract"]["domain_effects"].append({"kind": "email", "source_effect": "notify"})
    tool["effects"]["reversibility"] = "irreversible"
    changes = _changes(DESCRIPTOR, after)
    assert changes["corvid.approval_label_tier_lowered"].severity == "regression"
    assert changes["corvid.irreversible_gained"].severity == "regression"
    assert changes["corvid.grounded_provenance_lost"].severity == "regression"
    assert changes["corvid.ownership_loosened"].after == {"param:ticket": "shared"}
    assert changes["corvid.budget_raised"].severity == "warning"
    assert changes["corvid.domain_effect_added"].after == "email" and changes["corvid.domain_effect_added"].severity == "warning"


def test_money_effect_added_is_a_regression_and_label_removal_too() -> None:
    before = copy.deepcopy(DESCRIPTOR)
    before["tools"][0]["contract"]["domain_effects"] = []
    after = copy.deepcopy(DESCRIPTOR)
    after["agents"][0]["approval_contract"] = {"required": True, "labels": []}
    changes = _changes(before, after)
    assert changes["corvid.domain_effect_added"].severity == "regression"
    assert changes["corvid.approval_label_removed"].severity == "regression"


def test_identical_descriptor_regenerated_is_no_change() -> None:
    regenerated = copy.deepcopy(DESCRIPTOR)
    regenerated["generated_at"] = "2027-05-05T00:00:00Z"  # build metadata only
    regenerated["compiler_version"] = "0.9.1"
    assert _changes(DESCRIPTOR, regenerated) == {}


def test_every_corvid_catalogue_kind_is_produced_in_one_direction_or_the_other() -> None:
    from receipt.catalogue import CATALOGUE

    after = copy.deepcopy(DESCRIPTOR)
    agent, tool = after["agents"][0], after["tools"][0]
    agent["approval_contract"]["labels"][0]["required_tier"] = "autonomous"
    agent["approval_contract"]["labels"][0]["reversibility"] = "irreversible"
    agent["provenance"]["returns_grounded"] = False
    agent["params"][0]["ownership"]["mode"] = "shared"
    agent["budget"]["usd_per_call"] = 5.0
    tool["contract"]["domain_effects"].append({"kind": "email", "source_effect": "notify"})
    removed = copy.deepcopy(DESCRIPTOR)
    removed["agents"][0]["approval_contract"]["labels"] = []
    produced = set(_changes(DESCRIPTOR, after)) | set(_changes(after, DESCRIPTOR)) | set(_changes(DESCRIPTOR, removed))
    assert {i for i in CATALOGUE if i.startswith("corvid.")} <= produced


def test_reordering_a_dispatch_s_models_leaves_the_surface_and_its_digest_as_they_were(git_repo) -> None:
    # Arms and listed models are a set of what the agent may run on: their order in the descriptor
    # (a regenerated build, an arm moved up) is no change, in the diff and in the surface itself.
    from receipt.models import Surface
    from receipt.pipeline import surface_sha256
    from tests.helpers import receipt_of, run_cli

    def with_models(arms: list[str], listed: list[str]) -> bytes:
        doc = copy.deepcopy(DESCRIPTOR)
        doc["agents"][0]["dispatch"] = {
            "kind": "route",
            "route_arms": [{"model": m, "matcher": f"arm_{i}"} for i, m in enumerate(arms)],
            "models": listed,
        }
        return json.dumps(doc, indent=2).encode()

    git_repo.commit({"build/refunds.corvid-abi.json": with_models(["gpt-5", "gpt-5-mini"], ["o4-mini", "gpt-5"])})
    git_repo.commit({"build/refunds.corvid-abi.json": with_models(["gpt-5-mini", "gpt-5"], ["gpt-5", "o4-mini"])})

    def surface(rev: str) -> dict:
        out = run_cli("surface", rev, "--repo", str(git_repo.path), "--format", "json")
        assert out.returncode == 0, out.stderr
        return {**json.loads(out.stdout), "rev": "", "sha": ""}  # the commit is not the surface

    base, head = surface("HEAD~1"), surface("HEAD")
    (agent,) = head["agents"]
    assert agent["models"] == ["gpt-5", "gpt-5-mini", "o4-mini"] and agent["model"] == "gpt-5, gpt-5-mini, o4-mini"
    assert base == head
    assert surface_sha256(Surface.model_validate(base)) == surface_sha256(Surface.model_validate(head))
    assert receipt_of(git_repo)[1]["changes"] == []


def test_a_damaged_cached_descriptor_entry_is_a_one_line_note_not_a_traceback(tmp_path) -> None:
    """The facts cache keeps a descriptor's parsed entries; one that is a JSON object but no entry (a
    damaged or forged cache file) is reported on one line for that file, and the good ones stay."""
    from receipt.extract.cache import pack, unpack

    from receipt.dialects import corvid
    from receipt.extract import extract_file
    from receipt.extract.cache import FactsCache, dumps, loads
    from receipt.extract.program import Program

    path = "abi/refunds.corvid-abi.json"
    FactsCache(tmp_path).put("b1", path, extract_file(path, json.dumps(DESCRIPTOR).encode()))
    [stored] = list((tmp_path / "facts").rglob("*.zjson"))
    data = loads(unpack(stored.read_bytes()))
    entries = json.loads(data["facts"][14])  # the descriptor entries, as JSON text (see facts_to_json)
    good = len(entries)
    entries += [{"kind": "tool", "name": ["not", "a", "name"], "path": path, "line": "twelve", "dialect": "corvid"}, {"kind": "spaceship"}]
    data["facts"][14] = json.dumps(entries)
    stored.write_bytes(pack(dumps(data)))
    facts = FactsCache(tmp_path).get("b1", path)
    assert facts is not None  # objects in a list: the cache's own check lets them through
    result = corvid.extract(Program([facts]))
    assert len(result.candidates) == good
    assert [i.path for i in result.issues] == [path, path]
    assert all("\n" not in i.message and i.message.startswith("Corvid descriptor entry is malformed: ") for i in result.issues)
