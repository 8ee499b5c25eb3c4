from agents import function_tool


@function_tool
def search_kb(query: str) -> str:
    """Search the IT knowledge base."""
    return query
