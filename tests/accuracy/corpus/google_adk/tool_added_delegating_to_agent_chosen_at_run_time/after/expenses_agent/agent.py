from __future__ import annotations

from google.adk.agents import Agent
from google.adk.tools import FunctionTool, ToolContext
from google.adk.tools.agent_tool import AgentTool

from expenses_agent.policy import policy_agent as policy_expert
from expenses_agent.tools import list_expenses, reimburse, update_cost_center


async def ask_policy(question: str, tool_context: ToolContext) -> dict:
    """Ask the policy expert, when the policy service is switched on for this session."""
    delegate = (
        policy_expert
        if tool_context.state.get("policy_service") == "on"
        else None
    )
    if delegate is None:
        return {"status": "error", "message": "the policy service is off"}
    expert_tool = AgentTool(agent=delegate)
    answer = await expert_tool.run_async(args={"request": question}, tool_context=tool_context)
    return {"status": "success", "answer": answer}


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
        ask_policy,
    ],
    sub_agents=[policy_expert],
)
