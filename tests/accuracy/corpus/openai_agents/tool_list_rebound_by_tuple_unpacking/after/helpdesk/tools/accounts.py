
from agents import function_tool


@function_tool(needs_approval=True)
def reset_password(username: str) -> str:
    """Reset a user's password and email a temporary one."""
    return username


@function_tool
def disable_mfa(username: str) -> str:
    """Turn off multi-factor authentication for a user."""
    return username


@function_tool
def unlock_account(username: str) -> str:
    """Unlock an account locked after failed logins."""
    return username
