from google.adk.agents import ManagedAgent

from calendar_app.tools import cancel_meeting, read_calendar

root_agent = ManagedAgent(
    name="calendar",
    agent_id="calendar-assistant",
    instruction="Answer questions about the user's calendar.",
    tools=[read_calendar, cancel_meeting],
)
