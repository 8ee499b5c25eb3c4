from google.adk.agents import LlmAgent

from expenses_agent.tools import list_expenses

_grader = LlmAgent(
    name="grader",
    model="gemini-2.0-flash",
    instruction="Grade the assistant's answer against the expected answer.",
    tools=[list_expenses],
)
