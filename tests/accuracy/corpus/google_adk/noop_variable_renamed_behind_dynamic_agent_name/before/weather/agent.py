import os

from google.adk.agents import LlmAgent

from weather.tools import get_forecast

root_agent = LlmAgent(
    name=os.environ.get("AGENT_NAME", "weather"),
    model="gemini-2.5-flash",
    instruction="Answer weather questions.",
    tools=[get_forecast],
)
