from __future__ import annotations

from langchain.agents import create_agent

from ops.tools import restart

agent = create_agent("openai:gpt-4.1", tools=[restart], system_prompt="Keep services up.")
