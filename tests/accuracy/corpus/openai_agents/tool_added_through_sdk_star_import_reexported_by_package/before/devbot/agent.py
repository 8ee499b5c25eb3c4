from __future__ import annotations

from devbot import sdk
from devbot.tools import read_file

repo_agent = sdk.Agent(
    name="Repo Helper",
    instructions="Answer questions about this repository. Read files before answering.",
    tools=[read_file],
    model="gpt-5",
)
