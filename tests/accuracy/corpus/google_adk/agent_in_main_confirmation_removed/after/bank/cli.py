from google.adk.agents import Agent
from google.adk.tools import FunctionTool

from bank.tools import balance, wire_money


def main() -> None:
    teller = Agent(
        name="teller",
        model="gemini-2.0-flash",
        instruction="Answer questions about accounts.",
        tools=[balance, wire_money],
    )
    print(teller.name)
