from __future__ import annotations

from devbot import sdk
from devbot.tools import delete_branch, read_file

repo_agent = sdk.Agent(
    name="Repo Helper",
    instructions="Answer questions about this repository. Read files before answering.",
    tools=[read_file, delete_branch],
    model="gpt-5",
)
