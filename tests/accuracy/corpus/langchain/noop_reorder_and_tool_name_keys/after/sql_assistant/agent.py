
from __future__ import annotations

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langgraph.checkpoint.memory import InMemorySaver

from sql_assistant.tools import email_report, execute_sql, read_data

SYSTEM_PROMPT = """You are a careful analytics assistant.
Prefer read_data; only change data when the user explicitly asks for it."""

agent = create_agent(
    model="openai:gpt-4o",
    tools=[read_data, execute_sql, email_report],
    system_prompt=SYSTEM_PROMPT,
    middleware=[
        HumanInTheLoopMiddleware(
            interrupt_on={
                read_data.name: False,
                execute_sql.name: {"allowed_decisions": ["approve", "reject"]},
            },
            description_prefix="Tool execution pending approval",
        ),
    ],
    name="sql_assistant",
    checkpointer=InMemorySaver(),
)
