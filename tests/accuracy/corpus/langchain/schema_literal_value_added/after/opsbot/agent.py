"""The ops agent."""

from langchain.agents import create_agent

from opsbot.tools import restart_service

agent = create_agent("openai:gpt-4o", tools=[restart_service], system_prompt="Operate services carefully.")
