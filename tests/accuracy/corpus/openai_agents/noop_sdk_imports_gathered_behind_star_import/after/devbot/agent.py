from __future__ import annotations

from devbot.common import *  # noqa: F403
from devbot.tools import *  # noqa: F403

repo_agent = Agent(
    name="Repo Helper",
    instructions="Answer questions about this repository. Read files before answering.",
    tools=[read_file, WebSearchTool()],
    model="gpt-5",
)
