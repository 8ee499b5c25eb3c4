from dataclasses import dataclass

from agents import Agent

from bank.tools import account_summary, close_account


@dataclass
class BankContext:
    customer_id: str


class AccountAgent(Agent[BankContext]):
    """An agent specialised for account work."""


accounts = AccountAgent(
    name="Accounts",
    instructions="Help with account questions.",
    tools=[account_summary, close_account],
)
