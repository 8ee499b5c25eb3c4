from agents import Agent

bot = Agent(
    name="bot",
    instructions="Answer questions about the product catalogue.",
    model="gpt-4.1",
)
