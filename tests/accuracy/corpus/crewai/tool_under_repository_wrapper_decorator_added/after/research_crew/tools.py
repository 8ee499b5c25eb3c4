"""Tools of the research crew."""

from __future__ import annotations

import logging

from crewai.tools import tool

log = logging.getLogger(__name__)


def audited_tool(name: str):
    """Our tools are declared through this, so the audit log lists every tool the crew has."""
    log.info("declaring tool %s", name)
    return tool(name)


@tool("Search Filings")
def search_filings(company: str) -> str:
    """Search the public filings of a company."""
    return f"filings of {company}"


@audited_tool("Wire Money")
def wire_money(account: str, amount: float) -> str:
    """Send money from the fund's account to another account."""
    return f"sent {amount} to {account}"
