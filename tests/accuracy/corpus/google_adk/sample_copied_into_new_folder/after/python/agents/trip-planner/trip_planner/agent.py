from google.adk.agents import Agent

from trip_planner.prompts import PLANNER_INSTRUCTION
from trip_planner.sub_agents.booking import booking_agent
from trip_planner.tools import search_flights

root_agent = Agent(
    name="trip_planner",
    model="gemini-2.0-flash",
    description="Plans trips and hands bookings over.",
    instruction=PLANNER_INSTRUCTION,
    tools=[search_flights],
    sub_agents=[booking_agent],
)
