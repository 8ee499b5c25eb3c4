"""Tools of the fund crew."""

from crewai.tools import tool


@tool("Read Portfolio")
def read_portfolio(fund: str) -> str:
    """Read the positions a fund holds."""
    return f"positions of {fund}"
