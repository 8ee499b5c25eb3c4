"""Every tool call is written to the audit log."""

from __future__ import annotations

import logging

from crewai.hooks import InterceptionPoint, ToolCallHookContext, register_hook

AUDIT = logging.getLogger("support_crew.audit")
BEFORE_TOOL = InterceptionPoint.PRE_TOOL_CALL


def audit_tool_call(context: ToolCallHookContext) -> dict[str, str]:
    AUDIT.info("tool %s called with %s", context.tool_name, context.tool_input)
    if context.agent is None:
        raise RuntimeError("tool called outside an agent")
    return {"audited": context.tool_name}


register_hook(BEFORE_TOOL, audit_tool_call)
