from google.adk.agents import Agent
from google.adk.tools import FunctionTool

from trip_planner import prompts
from trip_planner.tools import book_flight

booking_agent = Agent(
    name="booking_agent",
    model="gemini-2.0-flash",
    description="Books the chosen flight.",
    instruction=prompts.BOOKING_INSTRUCTION,
    tools=[FunctionTool(book_flight, require_confirmation=True)],
)
