"""Tools of the fund crew."""

from crewai.tools import tool


@tool("Read Portfolio")
def read_portfolio(fund: str) -> str:
    """Read the positions a fund holds."""
    return f"positions of {fund}"


@tool("Wire Money")
def wire_money(account: str, amount: float) -> str:
    """Wire money from the fund to an account."""
    return f"sent {amount} to {account}"
