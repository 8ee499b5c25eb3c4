from __future__ import annotations

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langgraph.checkpoint.memory import InMemorySaver

from sql_assistant.tools import email_report, execute_sql, read_data

SYSTEM_PROMPT = """<role>
You are a careful analytics assistant.
</role>

<instructions>
Prefer read_data instead of the execute_sql tool; only change data when the user explicitly asks for it.
</instructions>"""

agent = create_agent(
    model="openai:gpt-4o",
    tools=[read_data, execute_sql, email_report],
    system_prompt=SYSTEM_PROMPT,
    middleware=[
        HumanInTheLoopMiddleware(
            interrupt_on={
                "execute_sql": {"allowed_decisions": ["approve", "reject"]},
                "read_data": False,
            },
            description_prefix="Tool execution pending approval",
        ),
    ],
    checkpointer=InMemorySaver(),
    name="sql_assistant",
)
