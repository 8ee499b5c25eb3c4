from google.adk.agents import Agent

MODEL = "gemini-2.5-flash"


def say_hello(name: str) -> str:
    """Greet the user by name."""
    return f"Hello, {name}!"


def get_weather(city: str) -> dict:
    """The weather report for a city."""
    return {"status": "success", "report": f"Sunny in {city}."}


greeting_agent = None
try:
    greeting_agent = Agent(
        model=MODEL,
        name="greeting_agent",
        instruction="Greet the user with the say_hello tool.",
        description="Handles greetings.",
        tools=[say_hello],
    )
    print(f"Agent '{greeting_agent.name}' created.")
except Exception as e:
    print(f"Could not create the greeting agent: {e}")

root_agent = Agent(
    name="weather_agent",
    model=MODEL,
    instruction="Answer weather questions with get_weather; delegate greetings to greeting_agent.",
    tools=[get_weather],
    sub_agents=[greeting_agent],
)
