"""What decides the verdict comes from the base revision or from the tool itself, never from the PR,
the cache or the environment; and hostile input or a hostile environment never crashes a run.

One test (or a few) per item of the trust issue, through the real CLI in subprocesses, on real git
repositories, and `receipt ci` against the loopback GitHub stand-in.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from receipt.keys import compute_keyid, keyring_json, parse_signing_key
from tests.fake_github import FakeGitHub
from tests.helpers import GitRepoBuilder, run_cli
from tests.test_ci_e2e import PR, REGRESSION, REPO, TOOLS_V1, Harness, pr_event

DANGEROUS_MCP = '''
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("ops")

@mcp.tool(annotations={"destructiveHint": True, "readOnlyHint": False})
def wipe_database(name: str) -> str:
    """Drop everything."""
    return name
'''


def receipt_json(repo: GitRepoBuilder, base: str, head: str, *extra: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    out = run_cli("trace-diff", base, head, "--repo", str(repo.path), "--format", "json", *extra, env=env)
    assert out.returncode in (0, 1), out.stderr
    return out.returncode, json.loads(out.stdout)


def ids(receipt: dict[str, Any]) -> list[str]:
    return sorted(c["id"] for c in receipt["changes"])


@pytest.fixture
def repo(git_repo: GitRepoBuilder) -> GitRepoBuilder:
    git_repo.commit({"shop/tools.py": TOOLS_V1, "README.md": "shop\n"}, "v1")
    return git_repo


@pytest.fixture
def fake():
    with FakeGitHub() as f:
        yield f


@pytest.fixture
def h(tmp_path: Path, repo: GitRepoBuilder, fake: FakeGitHub) -> Harness:
    return Harness(tmp_path, repo, fake)


def feature(repo: GitRepoBuilder, files: dict[str, str | bytes | None]) -> tuple[str, str]:
    """A branch off main with one commit; returns (base, head) and leaves main checked out."""
    base = repo.git("rev-parse", "HEAD")
    repo.git("checkout", "-q", "-b", f"f{repo._n}")
    head = repo.commit(files)
    repo.git("checkout", "-q", "main")
    return base, head


def ci_receipt(run) -> dict[str, Any]:
    return json.loads((Path(run.outputs["receipt-path"]).parent / "receipt.json").read_text(encoding="utf-8"))


# -- 1. config from the base revision --------------------------------------------------------------------


def test_pr_side_config_named_by_the_action_input_cannot_relax_its_own_gate(h, repo, fake):
    # The Action's `config:` input sets RECEIPT_CONFIG; the file does not exist at base.
    base, head = feature(repo, {"ops/server.py": DANGEROUS_MCP, ".receipt.toml": 'fail_on = "never"\n'})
    r = h.run(pr_event(base, head), env={"RECEIPT_CONFIG": ".receipt.toml"})
    assert r.code == 1, r.stderr
    assert r.outputs["verdict"] == "fail"
    data = ci_receipt(r)
    assert {"config.changed", "tool.added"} <= set(ids(data))
    assert data["verdict"]["fail_on"] == "regression"
    assert "receipt configuration '.receipt.toml' changed" in fake.issue_comments(REPO, PR)[0]["body"].replace("\\", "")


def test_trace_diff_never_reads_the_named_config_from_the_work_tree(repo):
    base, head = feature(repo, {"ops/server.py": DANGEROUS_MCP, ".receipt.toml": 'fail_on = "never"\n'})
    (repo.path / ".receipt.toml").write_text('fail_on = "never"\n', encoding="utf-8")  # also in the work tree
    code, data = receipt_json(repo, base, head, "--config", ".receipt.toml")
    assert code == 1 and "config.changed" in ids(data)
    change = next(c for c in data["changes"] if c["id"] == "config.changed")
    assert change["before"] is None and change["after"]


def test_named_config_missing_at_both_revisions_is_exit_2_with_the_path(repo):
    head = repo.commit({"shop/more.py": "x = 1\n"})
    (repo.path / "cfg.toml").write_text('fail_on = "never"\n', encoding="utf-8")  # untracked: not a revision's
    out = run_cli("trace-diff", "HEAD~1", head, "--repo", str(repo.path), "--config", "cfg.toml")
    assert out.returncode == 2 and "cfg.toml" in out.stderr and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_config_outside_the_repository_local_run_only(h, repo, tmp_path):
    outside = tmp_path / "elsewhere" / "receipt.toml"
    outside.parent.mkdir()
    outside.write_text('fail_on = "never"\n', encoding="utf-8")
    base, head = feature(repo, {"shop/tools.py": REGRESSION})
    code, data = receipt_json(repo, base, head, "--config", str(outside))
    assert code == 0 and data["verdict"]["fail_on"] == "never"  # a local run that names it
    missing = run_cli("trace-diff", base, head, "--repo", str(repo.path), "--config", str(tmp_path / "nope.toml"))
    assert missing.returncode == 2 and "nope.toml" in missing.stderr
    r = h.run(pr_event(base, head), env={"RECEIPT_CONFIG": str(outside)})
    assert r.code == 2 and "outside the repository" in r.stderr and "Traceback" not in r.stderr


def test_a_broken_config_in_the_pr_is_a_row_not_a_crashed_run(repo):
    base, head = feature(repo, {".receipt.toml": "fail_on = [nope\n", "shop/tools.py": REGRESSION})
    code, data = receipt_json(repo, base, head)
    assert code == 1 and {"config.changed", "tool.approval_lowered"} <= set(ids(data))


def test_a_5000_digit_number_in_the_config_is_a_row_in_the_pr_and_exit_2_at_base(repo):
    huge = "max_file_bytes = " + "9" * 5000 + "\n"
    base, head = feature(repo, {".receipt.toml": huge, "shop/tools.py": REGRESSION})
    code, data = receipt_json(repo, base, head)
    assert code == 1 and "config.changed" in ids(data)
    repo.commit({".receipt.toml": huge})
    repo.commit({"shop/more.py": "x = 1\n"})
    out = run_cli("trace-diff", "HEAD~1", "HEAD", "--repo", str(repo.path))
    assert out.returncode == 2 and "out of range" in out.stderr and "internal error" not in out.stderr


def test_config_paths_and_excludes_that_match_nothing_are_a_visible_warning(repo):
    repo.commit({".receipt.toml": 'paths = ["agentz"]\nexclude = ["vendorz/**"]\n'})
    base, head = feature(repo, {"shop/tools.py": REGRESSION})
    out = run_cli("trace-diff", base, head, "--repo", str(repo.path))
    assert out.returncode == 0  # nothing scanned, but it says so
    assert "agentz" in out.stdout and "vendorz" in out.stdout
    _, data = receipt_json(repo, base, head)
    rows = [c for c in data["changes"] if c["id"] == "config.unmatched"]
    assert [(c["severity"], c["after"]) for c in rows] == [("warning", {"exclude": "vendorz/**"}), ("warning", {"paths": "agentz"})]


# -- 2. keyring and template ----------------------------------------------------------------------------


def test_a_key_added_to_the_keyring_and_an_edited_template_are_reported(repo):
    owner = parse_signing_key("11" * 32, "t").public_key
    repo.commit({".github/receipt-keys.json": keyring_json([owner]), ".receipt.toml": 'template = "tpl/receipt.md.j2"\n',
                 "tpl/receipt.md.j2": "{{ default }}\n"})  # fmt: skip
    evil = parse_signing_key("22" * 32, "t").public_key
    base, head = feature(repo, {".github/receipt-keys.json": keyring_json([owner, evil]), "tpl/receipt.md.j2": "All clear.\n"})
    code, data = receipt_json(repo, base, head)
    added = [c for c in data["changes"] if c["id"] == "keyring.key_added"]
    assert [(c["severity"], c["subject"]["name"]) for c in added] == [("warning", evil.keyid)]
    assert compute_keyid(evil.public) in added[0]["message"]
    assert "template.changed" in ids(data)
    base2, head2 = feature(repo, {".github/receipt-keys.json": keyring_json([evil])})
    _, data = receipt_json(repo, base2, head2)
    assert ids(data) == ["keyring.key_added", "keyring.key_removed"]
    _, data = receipt_json(repo, *feature(repo, {".github/receipt-keys.json": '{"keys": [], "keys": []}'}))
    assert ids(data) == ["keyring.invalid"]


def test_a_pr_adding_a_keyring_key_shows_in_ci(h, repo):
    key = parse_signing_key("33" * 32, "t").public_key
    base, head = feature(repo, {".github/receipt-keys.json": keyring_json([key])})
    r = h.run(pr_event(base, head))
    assert r.code == 0 and "keyring.key_added" in ids(ci_receipt(r)) and r.outputs["warnings"] == "1"


# -- 4. strict parsing of what a PR can write --------------------------------------------------------------

DESCRIPTOR = {
    "corvid_abi_version": 1,
    "agents": [],
    "tools": [{"name": "issue_refund", "params": [], "dangerous": True, "effects": {}, "contract": {}}],
    "approval_sites": [{"label": "Refund", "agent_context": "bot", "dangerous_targets": ["issue_refund"]}],
}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"corvid_abi_version": 1, "budget": ' + "9" * 5000 + "}", "5000 digits"),
        ('{"corvid_abi_version": true}', "unsupported corvid_abi_version true"),
        ('{"corvid_abi_version": 1, "x": NaN}', "NaN"),
        ('{"corvid_abi_version": 1, "x": -Infinity}', "Infinity"),
        ('{"corvid_abi_version": 1, "x": 1e999}', "out of range"),
        ('{"corvid_abi_version": 1, "tools": [{"name": "t", "dangerous": false, "dangerous": true}]}', "duplicate key 'dangerous'"),
        ('{"corvid_abi_version": 1, "tools": [{"name": "t", "dangerous": "no"}]}', "must be true or false"),
    ],
)
def test_hostile_descriptors_are_one_extraction_error_never_a_crash(repo, text, says):
    head = repo.commit({"build/app.corvid-abi.json": text})
    code, data = receipt_json(repo, "HEAD~1", head)
    (err,) = [c for c in data["changes"] if c["id"] == "surface.extraction_error"]
    assert err["subject"]["path"] == "build/app.corvid-abi.json" and says in err["message"]


def test_an_lfs_pointer_says_so_and_fails_closed(repo):
    pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:" + "a" * 64 + "\nsize 1234\n"
    head = repo.commit({"shop/tools.py": pointer})
    code, data = receipt_json(repo, "HEAD~1", head)
    # The file held exported tools at base: its content is now invisible, so the gate fails closed.
    (err,) = [c for c in data["changes"] if c["id"] == "surface.unanalysed_agent_code"]
    assert err["after"] == {"reason": "lfs-pointer"} and "LFS pointer" in err["message"] and code == 1
    assert "tool.removed" not in ids(data)  # not read as the tools being gone


def test_corvid_approval_sites_gate_a_tool_for_its_severity(repo):
    base = repo.commit({"build/app.corvid-abi.json": json.dumps(DESCRIPTOR)})
    code, data = receipt_json(repo, "HEAD~1", base)
    (added,) = [c for c in data["changes"] if c["id"] == "tool.added"]
    assert added["severity"] == "info" and code == 0  # dangerous, but gated by an approval site
    ungated = {**DESCRIPTOR, "approval_sites": []}
    head = repo.commit({"build/app.corvid-abi.json": json.dumps(ungated)})
    code, data = receipt_json(repo, base, head)
    assert code == 1 and ids(data) == ["tool.approval_lowered"]


# -- 5. locale, pipes, write errors ---------------------------------------------------------------------

NON_ASCII = DANGEROUS_MCP.replace("def wipe_database", 'def wipe_database_é(name: str) -> str:\n    """Drop é."""\n\n@mcp.tool(name="résumé_外")\ndef other')


@pytest.mark.parametrize("env", [{"LC_ALL": "C", "LANG": "C"}, {"PYTHONIOENCODING": "cp1252"}, {"PYTHONIOENCODING": "ascii", "LC_ALL": "C"}])
def test_output_is_the_same_utf8_bytes_under_any_locale(repo, env):
    head = repo.commit({"ops/server.py": NON_ASCII})
    args = [sys.executable, "-m", "receipt", "trace-diff", "HEAD~1", head, "--repo", str(repo.path)]
    clean = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LANG", "PYTHONIOENCODING", "PYTHONUTF8")}
    utf8 = subprocess.run(args, capture_output=True, env={**clean, "LC_ALL": "C.UTF-8"})
    other = subprocess.run(args, capture_output=True, env={**clean, **env})
    assert utf8.returncode == other.returncode == 1, other.stderr
    assert "résumé".encode() in utf8.stdout and "外".encode() in utf8.stdout
    assert other.stdout == utf8.stdout and other.stderr == b""


def test_a_closed_pipe_ends_quietly(repo):
    head = repo.commit({"ops/server.py": NON_ASCII})
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written, as `| head` is after its lines
    try:
        p = subprocess.run(
            [sys.executable, "-m", "receipt", "trace-diff", "HEAD~1", head, "--repo", str(repo.path)], stdout=write, stderr=subprocess.PIPE
        )
    finally:
        os.close(write)
    assert p.returncode == 141 and p.stderr == b""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_is_one_line_and_exit_4(repo, tmp_path):
    head = repo.commit({"ops/server.py": NON_ASCII})
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "receipt", "trace-diff", "HEAD~1", head, "--repo", str(repo.path)], stdout=full, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 4 and p.stderr == "error: cannot write the output: No space left on device\n"
    out = run_cli("trace-diff", "HEAD~1", head, "--repo", str(repo.path), "--output", "/dev/full")
    assert out.returncode == 4 and out.stderr.count("\n") == 1 and "internal error" not in out.stderr


# -- 6. a scanned folder added or deleted -------------------------------------------------------------------


def test_a_path_present_at_one_revision_only_lists_additions_or_removals(repo):
    added = repo.commit({"agents/ops.py": DANGEROUS_MCP})
    code, data = receipt_json(repo, "HEAD~1", added, "agents")
    assert code == 1 and ids(data) == ["tool.added"]
    removed = repo.commit({"agents/ops.py": None})
    code, data = receipt_json(repo, added, removed, "agents")
    assert ids(data) == ["tool.removed"]
    out = run_cli("trace-diff", added, removed, "nowhere", "--repo", str(repo.path))
    assert out.returncode == 3 and "nowhere" in out.stderr and out.stdout == ""


# -- 7. acceptances cover one path, and say when they never expire ---------------------------------------


def test_an_acceptance_covers_the_change_in_its_file_only_and_warns_without_expiry(repo):
    base, head = feature(repo, {"shop/tools.py": REGRESSION})
    _, data = receipt_json(repo, base, head)
    (change,) = data["changes"]
    repo.commit({".receipt.toml": f'[[accept]]\nfingerprint = "{change["fingerprint"]}"\nreason = "refunds are reversible"\n'})
    base, head = feature(repo, {"shop/tools.py": REGRESSION})
    code, data = receipt_json(repo, base, head)
    assert code == 0
    accepted = next(c for c in data["changes"] if c["id"] == "tool.approval_lowered")
    assert accepted["accepted"]["reason"] == "refunds are reversible"
    assert "config.acceptance_without_expiry" in ids(data)
    # The same tool with the same change in another file is another change.
    base, head = feature(repo, {"shop/tools.py": None, "shop/moved.py": REGRESSION})
    code, data = receipt_json(repo, base, head)
    assert code == 1


# -- 8. the sticky comment belongs to exactly the token's identity ---------------------------------------


@pytest.mark.parametrize(
    ("token", "impostor"),
    [
        (dict(login="github-actions[bot]", viewer_login="github-actions"), dict(login="github-actions", user_type="User")),
        (dict(login="receipt-app[bot]", viewer_login="receipt-app[bot]", app_slug="receipt-app"), dict(login="receipt-app", user_type="User")),
        (dict(login="octocat", viewer_login="octocat"), dict(login="octocat[bot]", user_type="Bot")),
    ],
    ids=["GITHUB_TOKEN", "app-token", "PAT"],
)
def test_only_the_tokens_own_comment_is_updated_and_nothing_is_deleted_first(tmp_path, repo, token, impostor):
    with FakeGitHub(**token) as fake:
        h = Harness(tmp_path, repo, fake)
        base, head = feature(repo, {"shop/tools.py": REGRESSION})
        first = h.run(pr_event(base, head))
        assert first.outputs["comment-action"] == "created"
        ours = fake.issue_comments(REPO, PR)[0]
        marker = ours["body"].splitlines()[0]
        fake.add_comment(REPO, PR, marker + "\nfake all clear\n", **impostor)  # same name, wrong type
        fake.add_comment(REPO, PR, marker + "\nduplicate from a race\n")  # genuinely ours, newer
        fake.clear_log()
        second_head = repo.commit({"shop/tools.py": REGRESSION + "\n# touch\n"})
        r = h.run(pr_event(base, second_head))
        assert r.outputs["comment-action"] == "updated" and r.outputs["comment-id"] == str(ours["id"])
        bodies = {c["id"]: c["body"] for c in fake.issue_comments(REPO, PR)}
        assert any(b.endswith("fake all clear\n") for b in bodies.values())  # the impostor's, untouched
        assert not any("duplicate from a race" in b for b in bodies.values())
        writes = [(w.method, w.path) for w in fake.writes()]
        assert writes[0] == ("PATCH", f"/repos/{REPO}/issues/comments/{ours['id']}")  # the update lands first
        assert [m for m, _ in writes] == ["PATCH", "DELETE"]


# -- 9. verify checks, prints and defaults the binding ------------------------------------------------------


def test_verify_prints_the_binding_warns_when_unchecked_and_defaults_from_actions(h, repo, tmp_path):
    seed = "4f" * 32
    key = parse_signing_key(seed, "t")
    base, head = feature(repo, {"shop/tools.py": REGRESSION})
    r = h.run(pr_event(base, head), env={"RECEIPT_SIGNING_KEY": seed})
    body = h.fake.issue_comments(REPO, PR)[0]["body"]
    comment = tmp_path / "comment.md"
    comment.write_text(body, encoding="utf-8")
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}

    plain = run_cli("verify", str(comment), "--key", key.public_hex, env=clean)
    assert plain.returncode == 0
    assert f"repository: {REPO} (NOT checked)" in plain.stdout and f"pr:         #{PR} (NOT checked)" in plain.stdout
    assert plain.stderr.startswith("warning: the binding's repository, pr, base, head were not checked")

    event = tmp_path / "event.json"
    actions = {**clean, "GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": REPO, "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event)}
    event.write_text(json.dumps(pr_event(base, head)), encoding="utf-8")
    ok = run_cli("verify", str(comment), "--key", key.public_hex, env=actions)
    assert ok.returncode == 0 and f"repository: {REPO} (checked)" in ok.stdout and f"head:       {head} (checked)" in ok.stdout
    assert "warning" not in ok.stderr and "from the GitHub Actions environment" in ok.stderr

    event.write_text(json.dumps(pr_event(base, head, number=PR + 1)), encoding="utf-8")
    other_pr = run_cli("verify", str(comment), "--key", key.public_hex, env=actions)
    assert other_pr.returncode == 1 and "binding" in other_pr.stderr
    override = run_cli("verify", str(comment), "--key", key.public_hex, "--expect-pr", str(PR), env=actions)
    assert override.returncode == 0
