"""Maintenance agent for the bot's operators."""

from __future__ import annotations

import subprocess

from agents import *


@function_tool
def run_command(command: str) -> str:
    """Run a shell command in the repository checkout."""
    completed = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=60)
    return completed.stdout + completed.stderr


admin_agent = Agent(
    name="Repo Admin",
    instructions="Carry out maintenance tasks the operators ask for.",
    tools=[run_command],
    model="gpt-5",
)
