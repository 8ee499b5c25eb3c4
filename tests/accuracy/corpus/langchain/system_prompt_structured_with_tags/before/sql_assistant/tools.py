"""Tools the SQL assistant can call."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage

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


@tool("send_report", description="Email a short report to a colleague.")
def email_report(to: str, subject: str, body: str) -> str:
    msg = EmailMessage()
    msg["To"], msg["Subject"] = to, subject
    msg.set_content(body)
    with smtplib.SMTP("smtp.internal") as smtp:
        smtp.send_message(msg)
    return "sent"
