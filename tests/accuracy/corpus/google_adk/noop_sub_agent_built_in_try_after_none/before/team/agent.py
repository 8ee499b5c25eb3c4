from google.adk.agents import Agent

MODEL = "gemini-2.5-flash"


def say_hello(name: str) -> str:
    """Greet the user by name."""
    return f"Hello, {name}!"


def get_weather(city: str) -> dict:
    """The weather report for a city."""
    return {"status": "success", "report": f"Sunny in {city}."}


greeting_agent = Agent(
    model=MODEL,
    name="greeting_agent",
    instruction="Greet the user with the say_hello tool.",
    description="Handles greetings.",
    tools=[say_hello],
)

root_agent = Agent(
    name="weather_agent",
    model=MODEL,
    instruction="Answer weather questions with get_weather; delegate greetings to greeting_agent.",
    tools=[get_weather],
    sub_agents=[greeting_agent],
)
