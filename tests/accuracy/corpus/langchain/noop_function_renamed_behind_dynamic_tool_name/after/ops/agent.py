from __future__ import annotations

from langchain.agents import create_agent

from ops.tools import restart_service

agent = create_agent("openai:gpt-4.1", tools=[restart_service], system_prompt="Keep services up.")
