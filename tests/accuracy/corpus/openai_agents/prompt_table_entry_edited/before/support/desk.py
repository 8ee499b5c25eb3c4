from agents import Agent

from support.prompts import INSTRUCTIONS
from support.tools import invoice_total


def build_billing_agent(language: str) -> Agent:
    return Agent(
        name="Billing",
        instructions=INSTRUCTIONS[language],
        tools=[invoice_total],
        model="gpt-4.1",
    )


def main() -> None:
    agent = build_billing_agent("en")
    print(agent.name)
