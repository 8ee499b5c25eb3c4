from agents.decorators import tool


@tool(needs_approval=True)
def close_account(account_id: str, reason: str) -> str:
    """Close a customer account."""
    return f"closed {account_id}"


@tool
def account_summary(account_id: str) -> str:
    """Summarise an account."""
    return "ok"
