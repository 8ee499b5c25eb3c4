from __future__ import annotations

import subprocess

from devbot.sdk import *  # noqa: F403


@function_tool
def read_file(path: str) -> str:
    """Read a text file from the checked-out repository."""
    with open(path, encoding="utf-8") as f:
        return f.read()


@function_tool
def delete_branch(branch: str) -> str:
    """Delete a branch of the repository, local and remote."""
    completed = subprocess.run(["git", "push", "origin", "--delete", branch], capture_output=True, text=True, timeout=60)
    return completed.stdout + completed.stderr
