"""Nightly data-quality job (cron); not served to users."""

from __future__ import annotations

from langchain.agents import create_agent
from langchain.tools import tool

from sql_assistant.tools import read_data


@tool
def open_ticket(title: str) -> str:
    """Open a data-quality ticket."""
    return title


_checker = create_agent(model="openai:gpt-4o-mini", tools=[read_data, open_ticket], name="dq_checker")
