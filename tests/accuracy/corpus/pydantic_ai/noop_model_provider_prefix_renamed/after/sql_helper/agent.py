"""Turns questions about the logs into SQL."""

from __future__ import annotations

from pydantic import BaseModel
from pydantic_ai import Agent


class SqlQuery(BaseModel):
    sql: str
    explanation: str


sql_agent = Agent(
    "google:gemini-2.5-flash",
    name="sql_writer",
    output_type=SqlQuery,
    instructions="Write one PostgreSQL SELECT over the `records` table that answers the question.",
)

reviewer = Agent(
    "google-cloud:gemini-2.5-pro",
    name="sql_reviewer",
    instructions="Check the query only reads data and explain any risk in one sentence.",
)


@sql_agent.tool_plain
def table_columns(table: str) -> list[str]:
    """The columns of a table the query may use."""
    return ["created_at", "level", "message"] if table == "records" else []
