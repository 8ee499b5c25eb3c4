from __future__ import annotations

from google.adk.agents import LlmAgent
from google.adk.code_executors import BuiltInCodeExecutor

root_agent = LlmAgent(
    name="sales_analyst",
    model="gemini-2.5-flash",
    description="Answers questions about the quarterly sales figures by writing and running Python.",
    instruction="Load the sales CSV the user names, compute what they ask for and explain the result.",
    code_executor=BuiltInCodeExecutor(),
)
