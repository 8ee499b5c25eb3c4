from __future__ import annotations

from agents import Agent, WebSearchTool

from devbot.tools import read_file

repo_agent = Agent(
    name="Repo Helper",
    instructions="Answer questions about this repository. Read files before answering.",
    tools=[read_file, WebSearchTool()],
    model="gpt-5",
)
