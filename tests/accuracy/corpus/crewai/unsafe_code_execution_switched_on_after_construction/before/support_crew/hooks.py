"""Human approval before money moves."""

from __future__ import annotations

from crewai.hooks import ToolCallHookContext, before_tool_call


@before_tool_call(tools=["issue_refund"])
def approve_refunds(context: ToolCallHookContext) -> bool | None:
    answer = context.request_human_input(prompt=f"Approve {context.tool_name} with {context.tool_input}? (yes/no)")
    return None if answer.strip().lower() == "yes" else False
