from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import GitRepoBuilder

# Every test runs the CLI as a local user would, also when the suite itself runs in CI: the CLI reads
# these to print CI progress lines and default `verify` expectations. Tests of CI behaviour set them.
for _var in ("CI", "GITHUB_ACTIONS"):
    os.environ.pop(_var, None)


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepoBuilder:
    return GitRepoBuilder(tmp_path / "repo")
