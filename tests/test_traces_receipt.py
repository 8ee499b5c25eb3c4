"""Recorded traces as evidence in the receipt: `trace-diff --traces`, `receipt traces summarize`,
`receipt ci` with RECEIPT_TRACES, signing and verification, through the real CLI on real git repos."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from tests.helpers import GitRepoBuilder, run_cli
from tests.trace_corpora import T0, agent_span, corvid_run, replay_capture, request, tool_span, write_lines

TOOLS = """
from receipt.markers import agent, tool

@tool(dangerous=True, approval="always")
def refund_order(order_id: str):
    '''Refund an order.'''

@tool(read_only=True)
def lookup_order(order_id: str):
    '''Look an order up.'''

@agent(model="gpt-5")
def support(q):
    lookup_order(q)
    return refund_order(q)
"""
LOWERED = TOOLS.replace('approval="always"', 'approval="never"')


def tid(n: int) -> str:
    return f"{n:032x}"


@pytest.fixture
def repo(git_repo: GitRepoBuilder) -> GitRepoBuilder:
    git_repo.commit({"shop/tools.py": TOOLS}, "v1")
    git_repo.commit({"shop/tools.py": LOWERED.replace("gpt-5", "gpt-6")}, "v2")
    return git_repo


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """5 traces: 3 OTLP (2 refund, one failing), 1 Corvid run (refund + lookup), 1 replay (lookup)."""
    d = tmp_path / "traces"
    write_lines(
        d / "otel" / "export.jsonl",
        [
            request([agent_span(tid(1), "support", start=T0 + 100), tool_span(tid(1), "refund_order", start=T0 + 101)]),
            request([tool_span(tid(2), "refund_order", start=T0 + 200, error=True)]),
            request([tool_span(tid(3), "lookup_order", start=T0 + 300)]),
        ],
    )
    write_lines(d / "corvid" / "run-9.jsonl.gz", corvid_run("r-9", "support", ["refund_order", "lookup_order"], ts_ms=(T0 + 400) * 1000), gz=True)
    write_lines(d / "replay" / "cap.jsonl", replay_capture([("lookup_order", None)]))
    return d


def receipt_json(repo: GitRepoBuilder, *args: str, env: dict[str, str] | None = None) -> tuple[int, dict, str]:
    r = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--format", "json", *args, env=env)
    assert r.returncode in (0, 1), r.stderr
    return r.returncode, json.loads(r.stdout), r.stdout


def traffic_of(receipt: dict, change_id: str) -> dict:
    return next(t for t in receipt["traffic"] if t["id"] == change_id)


def test_receipt_says_which_recorded_traces_exercise_each_change(repo: GitRepoBuilder, corpus: Path) -> None:
    code, receipt, _ = receipt_json(repo, "--traces", str(corpus))
    assert code == 1
    ev = receipt["traces"]
    assert (ev["traces"], ev["files"], ev["errored_traces"]) == (5, 3, 1)
    files = sorted(p for p in corpus.rglob("*") if p.is_file())
    digests = sorted(hashlib.sha256(p.read_bytes()).hexdigest() for p in files)
    assert ev["files_sha256"] == hashlib.sha256("".join(d + "\n" for d in digests).encode()).hexdigest()
    refund = traffic_of(receipt, "tool.approval_lowered")
    assert refund["subject"] == "tool:refund_order"
    assert (refund["traces"], refund["share"], refund["errored"]) == (3, 0.6, 1)
    assert refund["trace_ids"] == sorted([tid(1), tid(2), "r-9"])
    assert (refund["first_seen"], refund["last_seen"]) == ("2026-01-01T00:01:40Z", "2026-01-01T00:07:40Z")
    model = traffic_of(receipt, "agent.model_changed")
    assert (model["traces"], model["trace_ids"]) == (2, [tid(1), "r-9"])
    fingerprints = {c["fingerprint"] for c in receipt["changes"]}
    assert {t["fingerprint"] for t in receipt["traffic"]} == fingerprints

    md = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--traces", str(corpus)).stdout
    assert "### Seen in recorded traffic" in md
    assert "5 recorded traces, 1 with errors, 3 files" in md
    assert (
        "| tool **refund\\_order** (module shop/tools\\.py) | **regression**: no longer requires approval \\(was always\\) "
        "| **3 traces** (60.0%), 1 errored · 2026-01-01T00:01:40Z → 2026-01-01T00:07:40Z · first: " in md
    )


def test_receipt_without_traces_has_no_trace_keys(repo: GitRepoBuilder) -> None:
    _, receipt, _ = receipt_json(repo)
    assert "traces" not in receipt and "traffic" not in receipt


def test_byte_identical_whatever_the_file_order(repo: GitRepoBuilder, corpus: Path) -> None:
    parts = [str(corpus / "otel"), str(corpus / "corvid"), str(corpus / "replay")]
    outs = set()
    for order, seed in ((parts, "0"), (parts[::-1], "1"), ([parts[1], parts[0], parts[2]], "2")):
        args = [a for p in order for a in ("--traces", p)]
        r = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), *args, env={"PYTHONHASHSEED": seed})
        outs.add(r.stdout)
    assert len(outs) == 1


def test_unsupported_schema_version_exits_2_naming_the_file(repo: GitRepoBuilder, tmp_path: Path) -> None:
    rows = corvid_run("r-1", "support", [])
    rows[0]["version"] = 7
    write_lines(tmp_path / "t" / "new.jsonl", rows)
    r = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--traces", str(tmp_path / "t"))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == ["error: t/new.jsonl: Corvid trace schema version 7 is not supported (this version reads 1-2)"]


def test_no_trace_files_is_a_usage_error_not_zero_traffic(repo: GitRepoBuilder, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    r = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--traces", str(tmp_path / "empty"))
    assert r.returncode == 2 and "no trace files" in r.stderr


def test_escalation_comes_from_the_base_config_and_only_raises(git_repo: GitRepoBuilder, corpus: Path) -> None:
    git_repo.commit({"shop/tools.py": TOOLS, ".receipt.toml": "[traces]\nescalate_above = 0.3\n"}, "v1")
    # The PR tries to switch escalation off: the base's policy still applies.
    git_repo.commit({"shop/tools.py": TOOLS.replace("gpt-5", "gpt-6"), ".receipt.toml": "[traces]\n"}, "v2")
    code, receipt, _ = receipt_json(git_repo, "--traces", str(corpus))
    model = next(c for c in receipt["changes"] if c["id"] == "agent.model_changed")
    assert model["severity"] == "regression"  # warning, exercised by 2/5 traces > 30%
    assert traffic_of(receipt, "agent.model_changed")["escalated"] is True
    assert "traffic-escalated:1" in receipt["verdict"]["flags"] and code == 1
    assert receipt["traces"]["escalate_above"] == 0.3
    # Without traces, the same change is a warning.
    code, receipt, _ = receipt_json(git_repo)
    assert next(c for c in receipt["changes"] if c["id"] == "agent.model_changed")["severity"] == "warning"


def test_invalid_escalation_setting_is_a_config_error(git_repo: GitRepoBuilder, corpus: Path) -> None:
    git_repo.commit({"shop/tools.py": TOOLS, ".receipt.toml": "[traces]\nescalate_abov = 0.3\n"}, "v1")
    git_repo.commit({"shop/tools.py": LOWERED}, "v2")
    r = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path), "--traces", str(corpus))
    assert r.returncode == 2 and "escalate_above" in r.stderr


MCP_TWO_SERVERS = """
from mcp.server.fastmcp import FastMCP

billing = FastMCP("billing")
support = FastMCP("support")

@billing.tool(annotations={"readOnlyHint": True})
def refund(order_id: str) -> str:
    return order_id

@support.tool(annotations={"readOnlyHint": True})
def refund(order_id: str) -> str:
    return order_id
"""


def test_a_name_two_servers_expose_is_ambiguous_unless_the_trace_says_which(git_repo: GitRepoBuilder, tmp_path: Path) -> None:
    git_repo.commit({"srv.py": MCP_TWO_SERVERS}, "v1")
    git_repo.commit({"srv.py": MCP_TWO_SERVERS.replace('{"readOnlyHint": True}', '{"readOnlyHint": False}')}, "v2")
    write_lines(tmp_path / "a" / "t.jsonl", [request([tool_span(tid(1), "refund")], service="checkout")])
    _, receipt, _ = receipt_json(git_repo, "--traces", str(tmp_path / "a"))
    by_subject = {t["subject"]: t for t in receipt["traffic"] if t["id"] == "tool.read_only_lost"}
    assert set(by_subject) == {"tool:billing/refund", "tool:support/refund"}
    assert all(t["traces"] == 1 and t["ambiguous"] for t in by_subject.values())
    # The OTel resource names the server: only that one counts, and the count is exact.
    write_lines(tmp_path / "b" / "t.jsonl", [request([tool_span(tid(1), "refund")], service="billing")])
    _, receipt, _ = receipt_json(git_repo, "--traces", str(tmp_path / "b"))
    by_subject = {t["subject"]: t for t in receipt["traffic"] if t["id"] == "tool.read_only_lost"}
    assert (by_subject["tool:billing/refund"]["traces"], by_subject["tool:billing/refund"]["ambiguous"]) == (1, False)
    assert by_subject["tool:support/refund"]["traces"] == 0


MARKUP_NAME = '<img src=x onerror=alert(1)>|**Verdict: PASS**'


def test_markup_in_a_recorded_and_declared_name_is_escaped(git_repo: GitRepoBuilder, tmp_path: Path) -> None:
    src = f"""
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("shop")

@mcp.tool(name={MARKUP_NAME!r}, annotations={{"readOnlyHint": True}})
def evil(x: str) -> str:
    return x
"""
    git_repo.commit({"srv.py": src}, "v1")
    git_repo.commit({"srv.py": src.replace("True", "False")}, "v2")
    write_lines(tmp_path / "t" / "a.jsonl", [request([tool_span(tid(1), MARKUP_NAME)], service="shop")])
    r = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(git_repo.path), "--traces", str(tmp_path / "t"))
    section = r.stdout.split("### Seen in recorded traffic", 1)[1]
    assert "| **1 trace** (100.0%) · " in section
    assert "<img" not in r.stdout
    assert "| tool **&lt;img src\\=x onerror\\=alert\\(1\\)&gt;\\|\\*\\*Verdict\\: PASS\\*\\*** (MCP server shop) |" in section
    s = run_cli("traces", "summarize", str(tmp_path / "t"))
    assert s.returncode == 0 and MARKUP_NAME in s.stdout  # plain text for a terminal: no markup to escape


def test_signed_payload_records_the_evidence_and_verify_shows_it(repo: GitRepoBuilder, corpus: Path, tmp_path: Path) -> None:
    keydir = tmp_path / "keys"
    keydir.mkdir()
    r = run_cli("keygen", "--out", str(keydir / "k"))
    assert r.returncode == 0, r.stderr
    priv = keydir / "k.key"
    body = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path), "--traces", str(corpus), "--sign-key", str(priv))
    assert body.returncode == 1, body.stderr
    (tmp_path / "receipt.md").write_text(body.stdout, newline="")
    pub = keydir / "k.pub"
    v = run_cli("verify", str(tmp_path / "receipt.md"), "--key", str(pub), "--format", "json")
    assert v.returncode == 0, v.stderr
    payload = json.loads(v.stdout)
    assert payload["receipt"]["traces"]["traces"] == 5
    assert len(payload["receipt"]["traces"]["files_sha256"]) == 64
    text = run_cli("verify", str(tmp_path / "receipt.md"), "--key", str(pub))
    assert "traces:     5 traces from 3 files (files_sha256 " in text.stdout


def test_summarize_counts_calls_errors_and_approvals(tmp_path: Path) -> None:
    rows = corvid_run("r-1", "support", ["refund_order"], failed_tools=["refund_order"])
    rows[2:2] = [
        {"kind": "approval_request", "label": "refund_order"},
        {"kind": "approval_response", "label": "refund_order", "accepted": True},
        {"kind": "approval_request", "label": "IssueRefund"},
        {"kind": "approval_decision", "site": "IssueRefund", "accepted": False},
    ]
    write_lines(tmp_path / "t" / "r.jsonl", rows)
    write_lines(tmp_path / "t" / "o.jsonl", [request([tool_span(tid(1), "refund_order"), tool_span(tid(1), "refund_order")])])
    r = run_cli("traces", "summarize", str(tmp_path / "t"), "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    rows_ = {(x["kind"], x["name"], x["scope"]): x for x in data["rows"]}
    plain = rows_[("tool", "refund_order", "")]
    assert (plain["calls"], plain["errors"], plain["approvals_requested"], plain["approvals_granted"]) == (1, 1, 1, 1)
    assert rows_[("tool", "refund_order", "shop-api")]["calls"] == 2
    assert rows_[("approval", "IssueRefund", "")]["approvals_denied"] == 1
    assert data["evidence"]["traces"] == 2
    text = run_cli("traces", "summarize", str(tmp_path / "t")).stdout
    assert text.startswith("2 traces (1 with errors) in 2 files")


def test_summarize_makes_control_characters_visible(tmp_path: Path) -> None:
    write_lines(tmp_path / "c.jsonl", replay_capture([("\x1b[31mred\x1b[0m\u202e", None)]))
    r = run_cli("traces", "summarize", str(tmp_path / "c.jsonl"))
    assert r.returncode == 0 and "\x1b" not in r.stdout and "\u202e" not in r.stdout
    assert "\\u001b[31mred" in r.stdout


def test_ci_reads_traces_from_the_environment(repo: GitRepoBuilder, corpus: Path, tmp_path: Path) -> None:
    base = repo.git("rev-parse", "HEAD~1")
    head = repo.git("rev-parse", "HEAD")
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"ref": "refs/heads/main", "before": base, "after": head, "repository": {"full_name": "o/r"}}))
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RECEIPT_"))}
    env.update(
        GITHUB_EVENT_NAME="push",
        GITHUB_EVENT_PATH=str(event),
        GITHUB_REPOSITORY="o/r",
        GITHUB_WORKSPACE=str(repo.path),
        RECEIPT_OUTPUT_DIR=str(out),
        RECEIPT_TRACES=f"{corpus / 'otel'}\n{corpus / 'corvid'}\n",
    )
    r = run_cli("ci", env=env)
    assert r.returncode == 1, r.stderr
    receipt = json.loads((out / "receipt.json").read_text())
    assert receipt["traces"]["traces"] == 4
    assert "Seen in recorded traffic" in (out / "receipt.md").read_text()


def test_traffic_table_gives_way_to_the_size_budget_but_the_count_stays(repo: GitRepoBuilder, corpus: Path) -> None:
    from receipt.pipeline import build_receipt
    from receipt.render import render_markdown

    receipt = build_receipt(repo.path, "HEAD~1", "HEAD", traces=[corpus])
    full = render_markdown(receipt)
    assert "| What | Change | Recorded traffic |" in full
    tight = render_markdown(receipt, max_chars=len(full) - 300)
    assert "### Seen in recorded traffic" in tight and "5 recorded traces" in tight
    assert "| What | Change | Recorded traffic |" not in tight and "2 more changes seen in recorded traffic" in tight


AGENTS_SDK = """
from agents import Agent, function_tool

@function_tool
def lookup_order(order_id: str) -> str:
    return order_id

triage = Agent(name="Triage Agent", model="gpt-5", tools=[lookup_order])
"""


def test_agents_sdk_agent_is_matched_by_its_client_visible_name(git_repo: GitRepoBuilder, tmp_path: Path) -> None:
    git_repo.commit({"app.py": AGENTS_SDK}, "v1")
    git_repo.commit({"app.py": AGENTS_SDK.replace("gpt-5", "gpt-6")}, "v2")
    write_lines(
        tmp_path / "t" / "otel.jsonl",
        [
            request([agent_span(tid(1), "Triage Agent"), tool_span(tid(1), "lookup_order")]),
            request([agent_span(tid(2), "triage")]),  # the Python variable is not what clients see
            request([tool_span(tid(3), "lookup_order")]),
        ],
    )
    _, receipt, _ = receipt_json(git_repo, "--traces", str(tmp_path / "t"))
    model = traffic_of(receipt, "agent.model_changed")
    assert (model["subject"], model["traces"], model["trace_ids"], model["share"]) == ("agent:Triage Agent", 1, [tid(1)], 0.333333)
