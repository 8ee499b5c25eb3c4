"""`receipt ci` end to end: a real git repository, a synthetic event file, the real CLI in a
subprocess, and the fake GitHub server on 127.0.0.1 standing in for api.github.com."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.fake_github import FakeGitHub
from tests.helpers import GitRepoBuilder

REPO = "octo/shop"
PR = 7

TOOLS_V1 = """
from receipt.markers import agent, tool

@tool(dangerous=True, approval="always")
def refund_order(order_id: str, amount: float = 0.0):
    '''Refund an order.'''

@tool(read_only=True)
def lookup_order(order_id: str):
    '''Look an order up.'''

@agent(model="gpt-5")
def support(q):
    lookup_order(q)
    return refund_order(q)
"""
REGRESSION = TOOLS_V1.replace('approval="always"', 'approval="never"')  # tool.approval_lowered
INFO_ONLY = TOOLS_V1.replace("'''Look an order up.'''", "'''Look an order up by id.'''")  # description changed


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str


def parse_outputs(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and "=" not in line.split("<<")[0]:
            name, delim = line.split("<<", 1)
            j = lines.index(delim, i + 1)
            out[name] = "\n".join(lines[i + 1 : j])
            i = j + 1
            continue
        if line:
            name, value = line.split("=", 1)
            out[name] = value
        i += 1
    return out


class Harness:
    def __init__(self, tmp: Path, repo: GitRepoBuilder, fake: FakeGitHub):
        self.tmp, self.repo, self.fake = tmp, repo, fake
        self.n = 0

    def run(self, event: dict[str, Any], *args: str, event_name: str = "pull_request", env: dict[str, str] | None = None) -> Run:
        self.n += 1
        d = self.tmp / f"run{self.n}"
        d.mkdir()
        (d / "event.json").write_text(json.dumps(event), encoding="utf-8")
        (d / "summary.md").write_text("", encoding="utf-8")
        (d / "output.txt").write_text("", encoding="utf-8")
        (d / "temp").mkdir()
        base_env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_", "RECEIPT_"))}
        full_env = {
            **base_env,
            **self.fake.env(),
            "GITHUB_EVENT_NAME": event_name,
            "GITHUB_EVENT_PATH": str(d / "event.json"),
            "GITHUB_REPOSITORY": REPO,
            "GITHUB_WORKSPACE": str(self.repo.path),
            "GITHUB_STEP_SUMMARY": str(d / "summary.md"),
            "GITHUB_OUTPUT": str(d / "output.txt"),
            "RUNNER_TEMP": str(d / "temp"),
            "RECEIPT_CACHE_DIR": str(self.tmp / "cache"),
            "RECEIPT_GITHUB_BACKOFF": "0.01",
            "RECEIPT_GITHUB_MAX_WAIT": "5",
            **(env or {}),
        }
        p = subprocess.run(
            [sys.executable, "-m", "receipt", "ci", *args], env=full_env, capture_output=True, text=True, cwd=self.tmp, timeout=120
        )
        return Run(
            code=p.returncode,
            stdout=p.stdout,
            stderr=p.stderr,
            outputs=parse_outputs((d / "output.txt").read_text(encoding="utf-8")),
            summary=(d / "summary.md").read_text(encoding="utf-8"),
        )


def pr_event(base: str, head: str, number: int = PR) -> dict[str, Any]:
    return {
        "action": "synchronize",
        "number": number,
        "pull_request": {"number": number, "base": {"sha": base, "ref": "main"}, "head": {"sha": head, "ref": "feature"}},
        "repository": {"full_name": REPO},
    }


@pytest.fixture
def fake():
    with FakeGitHub() as f:
        yield f


@pytest.fixture
def repo(git_repo: GitRepoBuilder) -> GitRepoBuilder:
    git_repo.commit({"shop/tools.py": TOOLS_V1, "README.md": "shop\n"}, "v1")
    return git_repo


@pytest.fixture
def h(tmp_path: Path, repo: GitRepoBuilder, fake: FakeGitHub) -> Harness:
    return Harness(tmp_path, repo, fake)


def branch(repo: GitRepoBuilder, *contents: str) -> tuple[str, list[str]]:
    """main at v1; a feature branch with one commit per content of shop/tools.py. (base, [heads])."""
    base = repo.git("rev-parse", "HEAD")
    repo.git("checkout", "-q", "-b", "feature")
    heads = [repo.commit({"shop/tools.py": c}) for c in contents]
    repo.git("checkout", "-q", "main")
    return base, heads


def comments(fake: FakeGitHub) -> list[dict[str, Any]]:
    return fake.issue_comments(REPO, PR)


def marker(head: str, base: str, key: str = "default") -> str:
    return f"<!-- behavior-receipt:comment key={key} head={head} base={base} -->"


# -- the main path ------------------------------------------------------------------------------------


def test_first_run_creates_the_comment_with_outputs_summary_and_annotations(h, repo, fake):
    base, (head,) = branch(repo, REGRESSION)
    r = h.run(pr_event(base, head))
    assert r.code == 1, r.stderr  # a regression fails the check by default
    (c,) = comments(fake)
    assert c["body"].startswith(marker(head, base) + "\n")
    assert "refund\\_order" in c["body"] and "This receipt is not signed" in c["body"]
    assert c["user"]["login"] == "github-actions[bot]"

    out = r.outputs
    assert out["verdict"] == "fail" and out["changes"] == "1" and out["regressions"] == "1" and out["warnings"] == "0"
    assert (out["comment-id"], out["comment-url"], out["comment-action"]) == (str(c["id"]), c["html_url"], "created")
    receipt_md = Path(out["receipt-path"])
    assert receipt_md.read_text(encoding="utf-8") == c["body"]
    assert out["receipt-sha256"] == hashlib.sha256(receipt_md.read_bytes()).hexdigest()
    data = json.loads((receipt_md.parent / "receipt.json").read_text(encoding="utf-8"))
    assert [ch["id"] for ch in data["changes"]] == ["tool.approval_lowered"]
    assert receipt_md.parent.name == "default" and receipt_md.is_relative_to(h.tmp)

    assert c["body"] in r.summary
    assert re.search(r"^::error file=shop/tools\.py,line=\d+,title=tool\.approval_lowered%3A tool refund_order::", r.stdout, re.M)


def test_second_push_updates_the_same_comment(h, repo, fake):
    base, (h1, h2) = branch(repo, INFO_ONLY, REGRESSION)
    assert h.run(pr_event(base, h1)).code == 0
    (first,) = comments(fake)
    fake.clear_log()
    r = h.run(pr_event(base, h2))
    assert r.code == 1
    (c,) = comments(fake)
    assert c["id"] == first["id"] and c["body"].startswith(marker(h2, base))
    assert [w.method for w in fake.writes()] == ["PATCH"]
    assert r.outputs["comment-action"] == "updated"


def test_identical_rerun_writes_nothing(h, repo, fake):
    base, (head,) = branch(repo, INFO_ONLY)
    h.run(pr_event(base, head))
    fake.clear_log()
    r = h.run(pr_event(base, head))
    assert r.code == 0
    assert fake.writes() == []
    assert r.outputs["comment-action"] == "unchanged" and r.outputs["comment-id"] == str(comments(fake)[0]["id"])


def test_an_older_head_does_not_overwrite_a_newer_one(h, repo, fake):
    base, (h1, h2) = branch(repo, INFO_ONLY, REGRESSION)
    h.run(pr_event(base, h2))
    newer_body = comments(fake)[0]["body"]
    fake.clear_log()
    r = h.run(pr_event(base, h1))  # a slow run for the previous push finishes last
    assert r.code == 0
    assert fake.writes() == []
    assert comments(fake)[0]["body"] == newer_body
    assert re.search(r"^::notice title=behavior-receipt::The PR already shows the receipt for a newer head", r.stdout, re.M)
    assert r.outputs["comment-action"] == "stale"


def test_a_head_unknown_locally_is_newer_only_if_it_is_the_prs_current_head(h, repo, fake):
    base, (head,) = branch(repo, INFO_ONLY)
    future = "f" * 40  # pushed after this run's checkout: not in our clone
    fake.add_comment(REPO, PR, marker(future, base) + "\nreceipt for a later push\n")
    fake.pulls[(REPO, PR)] = future
    r = h.run(pr_event(base, head))
    assert r.outputs["comment-action"] == "stale"
    assert "later push" in comments(fake)[0]["body"]

    fake.pulls[(REPO, PR)] = head  # that head was force-pushed away; ours is current
    r = h.run(pr_event(base, head))
    assert r.outputs["comment-action"] == "updated"
    assert comments(fake)[0]["body"].startswith(marker(head, base))


def test_a_race_is_cleaned_up_and_foreign_markers_are_left_alone(h, repo, fake):
    base, (head,) = branch(repo, INFO_ONLY)
    forged = fake.add_comment(REPO, PR, marker(head, base) + "\nAll clear! (forged)\n", login="mallory")
    oldest = fake.add_comment(REPO, PR, marker(base, base) + "\nrun A\n")
    dup = fake.add_comment(REPO, PR, marker(base, base) + "\nrun B\n")
    r = h.run(pr_event(base, head))
    assert r.code == 0
    by_id = {c["id"]: c for c in comments(fake)}
    assert set(by_id) == {forged["id"], oldest["id"]}
    assert by_id[forged["id"]]["body"] == forged["body"]
    assert by_id[oldest["id"]]["body"].startswith(marker(head, base))
    assert dup["id"] not in by_id
    assert "ignored 1 comment(s) by other users" in r.stdout


def test_many_pages_of_comments_are_read(h, repo, fake):
    base, (h1, h2) = branch(repo, INFO_ONLY, REGRESSION)
    h.run(pr_event(base, h1))
    for i in range(205):
        fake.add_comment(REPO, PR, f"review chatter {i}", login="octocat")
    h.run(pr_event(base, h2))
    ours = [c for c in comments(fake) if c["body"].startswith("<!-- behavior-receipt")]
    assert len(ours) == 1 and ours[0]["body"].startswith(marker(h2, base))


# -- faults ---------------------------------------------------------------------------------------------


def test_fork_pr_falls_back_to_the_job_summary(h, repo, fake):
    base, (head,) = branch(repo, INFO_ONLY)
    fake.read_only = True
    r = h.run(pr_event(base, head))
    assert r.code == 0, r.stderr
    assert comments(fake) == []
    assert re.search(r"^::notice title=behavior-receipt::The token cannot write to this pull request", r.stdout, re.M)
    assert "> [!NOTE]" in r.summary and marker(head, base) in r.summary
    assert r.outputs["comment-action"] == "read-only" and r.outputs["comment-id"] == ""
    assert Path(r.outputs["receipt-path"]).read_text(encoding="utf-8") in r.summary


def test_fork_pr_still_exits_by_policy(h, repo, fake):
    base, (head,) = branch(repo, REGRESSION)
    fake.read_only = True
    assert h.run(pr_event(base, head)).code == 1


def test_rate_limits_and_server_errors_are_survived_without_duplicates(h, repo, fake):
    base, (head,) = branch(repo, INFO_ONLY)
    fake.fail(429, method="GET", path=r"/comments$", headers={"retry-after": "1"})
    fake.fail(502, method="POST", path=r"/comments$", after_write=True)  # stored, but the answer is lost
    fake.fail(503, path=r"^/graphql$")
    r = h.run(pr_event(base, head))
    assert r.code == 0, r.stdout + r.stderr
    assert len(comments(fake)) == 1
    assert r.outputs["comment-action"] == "created" and r.outputs["comment-id"] == str(comments(fake)[0]["id"])
    assert "rate limited; waiting" in r.stdout


def test_final_api_failure_keeps_the_receipt_and_exits_by_policy(h, repo, fake):
    base, (head,) = branch(repo, INFO_ONLY)
    fake.fail(500, method="GET", times=100)
    r = h.run(pr_event(base, head), env={"RECEIPT_GITHUB_ATTEMPTS": "3"})
    assert r.code == 0
    assert re.search(r"^::warning title=behavior-receipt::The PR comment could not be written", r.stdout, re.M)
    assert marker(head, base) in r.summary and Path(r.outputs["receipt-path"]).is_file()
    assert r.outputs["comment-action"] == "failed"
    assert len([q for q in fake.requests if q.method == "GET"]) == 3


# -- policy and options -----------------------------------------------------------------------------------


def test_fail_on_from_flag_and_environment(h, repo, fake):
    base, (head,) = branch(repo, REGRESSION)
    assert h.run(pr_event(base, head), "--fail-on", "never").code == 0
    assert h.run(pr_event(base, head), env={"RECEIPT_FAIL_ON": "never"}).code == 0
    assert h.run(pr_event(base, head), env={"RECEIPT_FAIL_ON": ""}).code == 1  # empty input = default


def test_warnings_fail_only_when_asked(h, repo, fake):
    without_lookup = TOOLS_V1.split("@tool(read_only=True)")[0] + "@agent(model=\"gpt-5\")\ndef support(q):\n    return refund_order(q)\n"
    base, (head,) = branch(repo, without_lookup)  # tool.removed: a warning
    r = h.run(pr_event(base, head))
    assert r.code == 0 and int(r.outputs["warnings"]) >= 1 and r.outputs["regressions"] == "0"
    assert h.run(pr_event(base, head), "--fail-on", "warning").code == 1


def test_gating_config_comes_from_the_base_revision(h, repo, fake):
    repo.commit({".receipt.toml": 'fail_on = "never"\n'}, "relaxed gate on main")
    base, (head,) = branch(repo, REGRESSION)
    assert h.run(pr_event(base, head)).code == 0  # base says never

    # A PR cannot relax its own gate: the config it adds is not used for gating.
    repo.git("checkout", "-q", "main")
    repo.git("rm", "-q", ".receipt.toml")
    repo.git("commit", "-q", "-m", "strict again")
    base2 = repo.git("rev-parse", "HEAD")
    repo.git("checkout", "-q", "-b", "sneaky")
    head2 = repo.commit({"shop/tools.py": REGRESSION, ".receipt.toml": 'fail_on = "never"\n'})
    repo.git("checkout", "-q", "main")
    r = h.run(pr_event(base2, head2, number=8))
    assert r.code == 1
    data = json.loads((Path(r.outputs["receipt-path"]).parent / "receipt.json").read_text(encoding="utf-8"))
    assert "config.changed" in [c["id"] for c in data["changes"]]


def test_receipt_keys_keep_separate_comments(h, repo, fake):
    base, (head,) = branch(repo, INFO_ONLY)
    h.run(pr_event(base, head), "--receipt-key", "api")
    h.run(pr_event(base, head), env={"RECEIPT_COMMENT_KEY": "worker"})
    keys = sorted(re.match(r"<!-- behavior-receipt:comment key=(\S+)", c["body"]).group(1) for c in comments(fake))
    assert keys == ["api", "worker"]


def test_invalid_inputs_are_usage_errors_before_any_request(h, repo, fake, tmp_path):
    # In-process (typer's runner) to keep the suite fast; the CLI path is the same as in a subprocess.
    from typer.testing import CliRunner

    from receipt.cli import app

    base, (head,) = branch(repo, INFO_ONLY)
    event = tmp_path / "event.json"
    event.write_text(json.dumps(pr_event(base, head)), encoding="utf-8")
    env = {**fake.env(), "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event), "GITHUB_REPOSITORY": REPO,
           "GITHUB_WORKSPACE": str(repo.path), "GITHUB_STEP_SUMMARY": "", "GITHUB_OUTPUT": "", "RUNNER_TEMP": str(tmp_path)}  # fmt: skip
    for args, extra in [
        (["--receipt-key", "x --> <b>"], {}),
        ([], {"RECEIPT_COMMENT_KEY": "a b"}),
        (["--comment", "sometimes"], {}),
        ([], {"RECEIPT_FAIL_ON": "always"}),
        ([], {"GITHUB_EVENT_NAME": "issue_comment"}),
        ([], {"RECEIPT_COMMENT": "", "GITHUB_TOKEN": ""}),  # the comment needs a token
    ]:
        r = CliRunner().invoke(app, ["ci", *args], env={**env, **extra})
        assert r.exit_code == 2, (args, extra, r.output)
        # The annotation that puts the failure on the PR page, then the one-line error.
        assert r.output.startswith("::error title=behavior-receipt%3A no receipt::") and "\nerror: " in r.output
        assert "Traceback" not in r.output
    assert fake.requests == []


def test_comment_off_makes_no_request_and_needs_no_token(h, repo, fake):
    base, (head,) = branch(repo, INFO_ONLY)
    r = h.run(pr_event(base, head), "--comment", "off", env={"GITHUB_TOKEN": ""})
    assert r.code == 0 and fake.requests == [] and r.outputs["comment-action"] == "off"
    assert marker(head, base) in r.summary


def test_hide_and_new_keeps_a_visible_trail(h, repo, fake):
    base, (h1, h2) = branch(repo, INFO_ONLY, REGRESSION)
    h.run(pr_event(base, h1), "--comment", "hide-and-new")
    h.run(pr_event(base, h2), "--comment", "hide-and-new")
    first, second = comments(fake)
    assert fake.minimized == {first["node_id"]: "OUTDATED"} and second["body"].startswith(marker(h2, base))


# -- git problems ------------------------------------------------------------------------------------------


def test_missing_base_object_exits_3_with_the_fetch_command(h, repo, fake):
    base, (head,) = branch(repo, INFO_ONLY)
    ghost = "0123456789abcdef0123456789abcdef01234567"
    r = h.run(pr_event(ghost, head))
    assert r.code == 3
    assert f"fix: git fetch --no-tags origin {ghost}" in r.stderr
    assert fake.requests == []
    # The failure reaches the PR page: an error annotation, a summary with the fix, verdict=error.
    assert re.search(r"^::error title=behavior-receipt%3A no receipt::.*not in this clone.*Fix: git fetch", r.stdout, re.M)
    assert "> **ERROR** — no receipt" in r.summary and "**How to fix:** git fetch" in r.summary
    assert r.outputs["verdict"] == "error" and r.outputs["changes"] == ""


def test_the_printed_fetch_command_fixes_a_shallow_clone(tmp_path, repo, fake):
    base, (head,) = branch(repo, INFO_ONLY)
    repo.git("config", "uploadpack.allowAnySHA1InWant", "true")  # GitHub serves any reachable sha
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo.path}", str(clone)], check=True)
    harness = Harness(tmp_path, GitRepoBuilder.__new__(GitRepoBuilder), fake)
    harness.repo.path = clone
    r = harness.run(pr_event(base, head))
    assert r.code == 3, r.stderr
    fix = re.search(r"fix: (git fetch [^\n(]*)", r.stderr).group(1).strip()
    assert fix == f"git fetch --no-tags --unshallow origin {head}" or fix.endswith(f"origin {base} {head}")
    subprocess.run(shlex.split(fix), cwd=clone, check=True, capture_output=True)
    r = harness.run(pr_event(base, head))
    assert r.code == 0, r.stderr
    assert len(comments(fake)) == 1


def test_not_a_git_checkout_says_how_to_fix_it(h, repo, fake, tmp_path):
    base, (head,) = branch(repo, INFO_ONLY)
    empty = tmp_path / "empty"
    empty.mkdir()
    r = h.run(pr_event(base, head), env={"GITHUB_WORKSPACE": str(empty)})
    assert r.code == 3 and "fetch-depth: 0" in r.stderr


# -- push events and signing ------------------------------------------------------------------------------


def test_push_event_compares_before_after_and_writes_only_the_summary(h, repo, fake):
    before = repo.git("rev-parse", "HEAD")
    after = repo.commit({"shop/tools.py": REGRESSION})
    r = h.run({"before": before, "after": after, "ref": "refs/heads/main", "repository": {"full_name": REPO}}, event_name="push")
    assert r.code == 1
    assert fake.requests == []
    assert "refund\\_order" in r.summary and r.outputs["comment-action"] == "none"


def test_push_that_creates_a_branch_is_skipped_with_a_note(h, repo, fake):
    after = repo.git("rev-parse", "HEAD")
    r = h.run({"before": "0" * 40, "after": after, "created": True}, event_name="push")
    assert r.code == 0 and r.outputs["verdict"] == "skipped" and "No receipt" in r.summary
    assert "no changes" not in r.summary.lower()


def test_signed_receipt_verifies_against_the_pr_binding(h, repo, fake, tmp_path):
    from receipt.keys import parse_signing_key

    seed = "4f" * 32
    key = parse_signing_key(seed, "test")
    base, (head,) = branch(repo, REGRESSION)
    r = h.run(pr_event(base, head), env={"RECEIPT_SIGNING_KEY": seed})
    assert r.code == 1
    body = comments(fake)[0]["body"]
    assert "behavior-receipt:signature:v1" in body and "not signed" not in body
    assert seed not in r.stdout + r.stderr + r.summary
    (tmp_path / "comment.md").write_text(body, encoding="utf-8")
    v = subprocess.run(
        [
            sys.executable, "-m", "receipt", "verify", str(tmp_path / "comment.md"), "--key", key.public_hex,
            "--expect-repository", REPO, "--expect-pr", str(PR), "--expect-base", base, "--expect-head", head,
        ],
        capture_output=True, text=True,
    )  # fmt: skip
    assert v.returncode == 0, v.stdout + v.stderr


# -- the pure parts of the Actions runtime ------------------------------------------------------------------


def test_workflow_commands_are_escaped():
    from receipt.github.actions_env import command

    line = command("warning", "50% done\nnext::line", title="a: b, c", file="x,y.py", line=3)
    assert line == "::warning title=a%3A b%2C c,file=x%2Cy.py,line=3::50%25 done%0Anext::line"
    assert "\n" not in line


def test_outputs_file_format():
    from receipt.github.actions_env import output_lines

    text = output_lines({"verdict": "pass", "notes": "two\nlines"})
    assert text.startswith("verdict=pass\nnotes<<ghadelimiter_")
    assert parse_outputs(text) == {"verdict": "pass", "notes": "two\nlines"}
    with pytest.raises(ValueError):
        output_lines({"bad name": "x"})


def test_event_parsing():
    from receipt.errors import UsageError
    from receipt.github.actions_env import revisions_from_event

    a, b = "a" * 40, "b" * 40
    r = revisions_from_event("pull_request_target", pr_event(a, b))
    assert (r.kind, r.base, r.head, r.pr, r.repository) == ("pull_request", a, b, PR, REPO)
    r = revisions_from_event("push", {"before": a, "after": b})
    assert (r.kind, r.base, r.head, r.pr) == ("push", a, b, None)
    assert revisions_from_event("push", {"before": "0" * 40, "after": b}).base == ""
    for name, event in [("pull_request", {"pull_request": {"number": 1, "base": {"sha": "nope"}, "head": {"sha": b}}}),
                        ("workflow_dispatch", {}), ("pull_request", {})]:  # fmt: skip
        with pytest.raises(UsageError):
            revisions_from_event(name, event)


def test_receipt_paths_variable():
    from receipt.cli.ci import split_paths

    assert split_paths("src/agents\nsrc/tools\n") == ["src/agents", "src/tools"]
    assert split_paths("src/agents src/tools,lib") == ["src/agents", "src/tools", "lib"]
    assert split_paths("") == [] and split_paths(None) == []


@pytest.mark.parametrize("n_changes", [3, 30, 45])
def test_own_notices_keep_the_step_within_ten_notices(n_changes):
    from receipt.cli.ci import _cap_notices
    from receipt.render import render_annotations
    from tests.signing_support import make_receipt

    receipt = make_receipt(n_changes=n_changes)
    full = render_annotations(receipt)
    capped = _cap_notices(full, reserved=1)
    lines = capped.splitlines()
    for level in ("error", "warning", "notice"):
        assert sum(ln.startswith(f"::{level} ") for ln in lines) <= (9 if level == "notice" else 10)
    annotated = sum(1 for ln in lines if not ln.startswith("::notice title=behavior-receipt::"))
    more = re.search(r"::notice title=behavior-receipt::(\d+) more changes not annotated", capped)
    assert annotated + (int(more.group(1)) if more else 0) == n_changes
    assert _cap_notices(full, reserved=0) == full
