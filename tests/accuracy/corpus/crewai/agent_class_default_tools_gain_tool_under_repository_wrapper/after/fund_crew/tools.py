"""Tools of the fund crew."""

import logging

from crewai.tools import tool

log = logging.getLogger(__name__)


def audited_tool(name: str):
    """Every tool that moves money is declared through this, so the audit log lists them."""
    log.info("declaring tool %s", name)
    return tool(name)


@tool("Read Portfolio")
def read_portfolio(fund: str) -> str:
    """Read the positions a fund holds."""
    return f"positions of {fund}"


@audited_tool("Wire Money")
def wire_money(account: str, amount: float) -> str:
    """Wire money from the fund to an account."""
    return f"sent {amount} to {account}"
