"""Human approval before any tool runs."""

from __future__ import annotations

import functools
import time

from crewai.hooks import InterceptionPoint, ToolCallHookContext, register_hook


def approve_tool_calls(context: ToolCallHookContext) -> bool | None:
    answer = context.request_human_input(prompt=f"Approve {context.tool_name} with {context.tool_input}? (yes/no)")
    return None if answer.strip().lower() == "yes" else False


def timed(hook):
    @functools.wraps(hook)
    def run(context: ToolCallHookContext):
        started = time.monotonic()
        result = hook(context)
        print(f"{hook.__name__} took {time.monotonic() - started:.3f}s")
        return result

    return run


@timed
def record_tool_call(context: ToolCallHookContext) -> None:
    print("tool call:", context.tool_name)


register_hook(InterceptionPoint.PRE_TOOL_CALL, approve_tool_calls)
register_hook(InterceptionPoint.PRE_TOOL_CALL, record_tool_call)
