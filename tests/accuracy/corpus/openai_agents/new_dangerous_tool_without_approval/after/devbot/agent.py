
from __future__ import annotations

from agents import Agent, LocalShellTool, WebSearchTool

from devbot.tools import read_file, run_in_sandbox

repo_agent = Agent(
    name="Repo Helper",
    instructions="Answer questions about this repository. Read files before answering.",
    tools=[read_file, WebSearchTool(), LocalShellTool(executor=run_in_sandbox)],
    model="gpt-5",
)
