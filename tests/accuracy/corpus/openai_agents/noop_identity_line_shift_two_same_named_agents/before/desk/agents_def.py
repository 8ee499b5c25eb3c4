from agents import Agent

first_line = Agent(
    name="helper",
    instructions="Answer shipping questions.",
    model="gpt-4.1",
)

second_line = Agent(
    name="helper",
    instructions="Answer returns questions.",
    model="gpt-4.1-mini",
)
