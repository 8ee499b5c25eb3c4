import os

from receipt.markers import agent, tool


@tool(name=os.environ.get("TRANSFER_TOOL", "transfer"), dangerous=True, approval="always")
def send_money(amount: int, to: str) -> str:
    """Move money to another account."""
    return "ok"


@agent
def teller(request: str) -> str:
    """Handle a customer's banking request."""
    return send_money(1, request)
