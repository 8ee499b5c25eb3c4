from __future__ import annotations

import subprocess

from devbot.sdk import *  # noqa: F403


@function_tool
def read_file(path: str) -> str:
    """Read a text file from the checked-out repository."""
    with open(path, encoding="utf-8") as f:
        return f.read()
