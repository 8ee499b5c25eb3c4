"""Tools of the research crew."""

from crewai.tools import tool


@tool("Search Filings")
def search_filings(company: str, year: int) -> str:
    """Search a company's public filings for one year."""
    return ""


@tool("Wire Money")
def wire_money(account: str, amount: float) -> str:
    """Wire money from the company account."""
    return ""
