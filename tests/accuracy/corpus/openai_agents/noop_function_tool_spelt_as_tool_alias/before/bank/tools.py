from agents import function_tool


@function_tool(needs_approval=True)
def close_account(account_id: str, reason: str) -> str:
    """Close a customer account."""
    return f"closed {account_id}"


@function_tool
def account_summary(account_id: str) -> str:
    """Summarise an account."""
    return "ok"
