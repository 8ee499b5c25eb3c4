from langchain_core.tools import tool


@tool
def search_tickets(query: str) -> list[str]:
    """Search support tickets."""
    return []


@tool
def close_ticket(ticket_id: str, note: str) -> str:
    """Close a support ticket."""
    return "closed"
