from __future__ import annotations

import sqlalchemy
from langchain.tools import tool

from sql_assistant.db import engine


@tool
def read_data(query: str) -> list[dict]:
    """Run a read-only SELECT query and return the rows."""
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(sqlalchemy.text(query))]


@tool
def execute_sql(statement: str) -> str:
    """Execute a data-changing SQL statement (INSERT, UPDATE, DELETE)."""
    with engine.begin() as conn:
        result = conn.execute(sqlalchemy.text(statement))
    return f"{result.rowcount} rows affected"
