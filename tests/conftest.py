from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import GitRepoBuilder


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepoBuilder:
    return GitRepoBuilder(tmp_path / "repo")
