def wire_money(account: str, amount: float) -> dict:
    """Send money to an account."""
    return {"status": "sent"}


def balance(account: str) -> dict:
    """Read an account's balance."""
    return {"balance": 0.0}
