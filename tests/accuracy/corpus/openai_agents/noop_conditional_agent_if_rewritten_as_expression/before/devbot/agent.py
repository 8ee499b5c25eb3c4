from __future__ import annotations

import os

from agents import Agent, LocalShellTool, WebSearchTool

from devbot.tools import read_file, run_in_sandbox

repo_agent = Agent(
    name="Repo Helper",
    instructions="Answer questions about this repository. Read files before answering.",
    tools=[read_file, WebSearchTool()],
    model="gpt-5",
)

if os.environ.get("DEVBOT_OPS") == "1":
    ops_agent = Agent(
        name="Ops Helper",
        instructions="Run maintenance commands in the CI sandbox when asked.",
        tools=[read_file, LocalShellTool(executor=run_in_sandbox)],
        model="gpt-5",
    )
else:
    ops_agent = None
