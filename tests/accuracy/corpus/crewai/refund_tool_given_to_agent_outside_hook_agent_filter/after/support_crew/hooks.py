"""Refunds the specialist issues above the limit are stopped before they reach the shop."""

from __future__ import annotations

from crewai.hooks import HookAborted, ToolCallHookContext, before_tool_call

REFUND_LIMIT = 200.0


@before_tool_call(tools=["issue_refund"], agents=["Refunds Specialist"])
def cap_refunds(context: ToolCallHookContext) -> bool | None:
    if float(context.tool_input.get("amount", 0)) > REFUND_LIMIT:
        raise HookAborted(f"refund above {REFUND_LIMIT} needs a manager")
    return None
