"""Tools of the research crew."""

from crewai.tools import tool


@tool("Search Filings")
def search_filings(company: str, year: int) -> str:
    """Search a company's public filings for one year."""
    return ""
