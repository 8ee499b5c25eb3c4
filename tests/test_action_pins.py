"""Pinned third-party actions in what we ship (README, docs/, action.yml, workflows) say which release
they are, and scripts/check_action_pins.py tells a sha that is the tag's commit from one that is not
(on real git repositories standing in for the actions' own; the real check is run by hand)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from tests.helpers import GitRepoBuilder

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "check_action_pins.py"


def _script():
    spec = importlib.util.spec_from_file_location("check_action_pins", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_every_pinned_action_names_its_release_and_is_listed_in_the_docs() -> None:
    found = _script().pins(ROOT)
    assert {repo for _, _, repo, _, _ in found} >= {"actions/checkout", "actions/cache", "actions/setup-python", "github/codeql-action"}
    table = (ROOT / "docs" / "github-action.md").read_text(encoding="utf-8").split("### Pinned actions", 1)[1].split("\n## ", 1)[0]
    for where, line, repo, sha, tag in found:
        assert tag, f"{where}:{line} pins {repo} by sha with no '# vX.Y.Z' comment"
        assert f"| {tag} | `{sha}` |" in table, f"{where}:{line} {repo}@{sha} # {tag} is not in the verified list"


def test_checker_accepts_the_tag_commit_and_rejects_any_other(git_repo: GitRepoBuilder, tmp_path: Path) -> None:
    first = git_repo.commit({"action.yml": "name: a\n"}, "v1")
    second = git_repo.commit({"action.yml": "name: b\n"}, "v2")
    subprocess.run(["git", "-C", str(git_repo.path), "tag", "-a", "-m", "release", "v1.0.0", first], check=True, capture_output=True)
    mirrors = tmp_path / "mirrors"
    subprocess.run(["git", "clone", "-q", "--bare", str(git_repo.path), str(mirrors / "acme+act" / "repo")], check=True)
    project = tmp_path / "project"
    (project / "docs").mkdir(parents=True)
    (project / "README.md").write_text(
        f"      - uses: acme/act@{first} # v1.0.0\n      - uses: acme/act/sub@{second} # v1.0.0\n"
        f"      - uses: acme/act@{first} # v9.9.9\n      - uses: acme/act@{first}\n",
        encoding="utf-8",
    )
    out = subprocess.run([sys.executable, str(SCRIPT), "--root", str(project), "--mirrors", str(mirrors)], capture_output=True, text=True)
    lines = out.stdout.splitlines()
    assert out.returncode == 1
    assert lines[0].startswith("ok ") and "README.md:1" in lines[0]
    assert lines[1].startswith("MISMATCH") and f"(v1.0.0 is {first})" in lines[1]
    assert lines[2].startswith("NO TAG")
    assert lines[3].startswith("UNCHECKED")
