from google.adk.agents import Agent

from trip_agent.providers import logistics_instruction


def flight_status(flight_number: str) -> dict:
    """Return the status of a flight."""
    return {"flight": flight_number, "status": "on time"}


root_agent = Agent(
    name="day_of_agent",
    model="gemini-2.0-flash",
    description="Helps a traveller on the day of a trip.",
    instruction=logistics_instruction,
    tools=[flight_status],
)
