
from __future__ import annotations

import subprocess

from agents import function_tool


@function_tool
def read_file(path: str) -> str:
    """Read a text file from the checked-out repository."""
    with open(path, encoding="utf-8") as f:
        return f.read()


def run_in_sandbox(request) -> str:
    """Executor for the local shell tool: runs inside the CI sandbox container."""
    completed = subprocess.run(request.data.action.command, capture_output=True, text=True, timeout=60)
    return completed.stdout + completed.stderr
