from google.adk.agents import Agent
from google.adk.tools import FunctionTool


def check_and_transfer(query: str) -> str:
    """Escalate an urgent request to a human agent."""
    return f"escalated: {query}"


escalation_tool = FunctionTool(func=check_and_transfer)

root_agent = Agent(
    model="gemini-2.5-flash",
    name="support_agent",
    instruction="Answer support questions. Escalate urgent ones.",
    tools=[escalation_tool],
)
