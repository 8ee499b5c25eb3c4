"""A human approves every page the crew fetches."""

from __future__ import annotations

from crewai.hooks import ToolCallHookContext, before_tool_call


@before_tool_call(tools=["scrape_website_content"])
def approve_fetches(context: ToolCallHookContext) -> bool | None:
    answer = context.request_human_input(prompt=f"Fetch {context.tool_input}? (yes/no)")
    return None if answer.strip().lower() == "yes" else False
