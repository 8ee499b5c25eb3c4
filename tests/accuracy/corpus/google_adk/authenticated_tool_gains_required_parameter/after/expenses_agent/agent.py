from __future__ import annotations

from google.adk.agents import Agent
from google.adk.tools import FunctionTool

from expenses_agent.export import export_tool
from expenses_agent.tools import list_expenses, reimburse, update_cost_center

policy_agent = Agent(
    name="policy_agent",
    model="gemini-2.0-flash",
    description="Answers questions about the travel and expense policy.",
    instruction="Answer questions about the expense policy. Quote the policy section you rely on.",
)

root_agent = Agent(
    name="expenses_assistant",
    model="gemini-2.0-flash",
    description="Helps employees with their expense reports.",
    instruction=(
        "You help employees with expense reports. List their expenses before changing anything. "
        "Delegate policy questions to policy_agent."
    ),
    tools=[
        list_expenses,
        FunctionTool(reimburse, require_confirmation=True),
        update_cost_center,
        export_tool,
    ],
    sub_agents=[policy_agent],
)
