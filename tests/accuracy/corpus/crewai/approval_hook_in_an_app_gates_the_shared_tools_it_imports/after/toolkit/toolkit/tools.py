from crewai.tools import tool


@tool("Close Account")
def close_account(account_id: str) -> str:
    """Close a customer account for good."""
    return account_id
