from agents import (
    Agent,
    handoff,
)
from agents.decorators import tool as function_tool


@function_tool
def roll_dice(sides: int) -> int:
    """Roll a die with the given number of sides."""
    return 1


spanish = Agent(name="Spanish Assistant", instructions="Answer in Spanish.")

first = Agent(name="Assistant", instructions="Be helpful.", tools=[roll_dice])

second = Agent(name="Assistant", instructions="Be helpful.", handoffs=[handoff(spanish)])
