from agents import Agent
from agents.extensions.experimental.codex import ThreadOptions, codex_tool

REVIEW_PROMPT = (
    "Review the pending change in the working tree. "
    "Use the codex tool to read files; report risky edits with file and line."
)

reviewer = Agent(
    name="Change reviewer",
    instructions=REVIEW_PROMPT,
    tools=[
        codex_tool(
            name="codex_reviewer",
            default_thread_options=ThreadOptions(
                sandbox_mode="read-only",
                working_directory=".",
                web_search_mode="live",
            ),
        )
    ],
)
