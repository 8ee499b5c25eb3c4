from agents import Agent, function_tool, handoff


@function_tool
def roll_dice(sides: int) -> int:
    """Roll a die with the given number of sides."""
    return 1


spanish = Agent(name="Spanish Assistant", instructions="Answer in Spanish.")

first = Agent(name="Assistant", instructions="Be helpful.", tools=[roll_dice])

second = Agent(name="Assistant", instructions="Be helpful.", handoffs=[handoff(spanish)])
