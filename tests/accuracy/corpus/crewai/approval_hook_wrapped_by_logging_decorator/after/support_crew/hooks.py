"""Human approval before any tool runs."""

from __future__ import annotations

import functools
import logging

from crewai.hooks import InterceptionPoint, ToolCallHookContext, register_hook

log = logging.getLogger(__name__)


def logged(hook):
    @functools.wraps(hook)
    def run(context: ToolCallHookContext):
        log.info("checking %s", context.tool_name)
        hook(context)

    return run


@logged
def approve_tool_calls(context: ToolCallHookContext) -> bool | None:
    answer = context.request_human_input(prompt=f"Approve {context.tool_name} with {context.tool_input}? (yes/no)")
    return None if answer.strip().lower() == "yes" else False


register_hook(InterceptionPoint.PRE_TOOL_CALL, approve_tool_calls)
