"""Plan a trip: pick a city, then build an itinerary with local tips."""

from __future__ import annotations

from crewai import Agent, Crew, Task

import hooks  # noqa: F401  (registers the approval hook)
from tools.browser_tools import scrape_website

researcher = Agent(
    role="Principal Researcher",
    goal="Compare candidate cities on weather, prices and events for {dates}",
    backstory="You have planned hundreds of trips and check every claim online.",
    tools=[scrape_website],
    allow_code_execution=True,
    code_execution_mode="unsafe",
)

local_expert = Agent(
    role="Local Expert at this city",
    goal="Give the best insider tips for {city}",
    backstory="You were born in the city and know where locals eat.",
    tools=[scrape_website],
)

trip_crew = Crew(
    agents=[researcher, local_expert],
    tasks=[
        Task(description="Pick the best city for {dates}", expected_output="One city and why", agent=researcher),
        Task(description="Write a 7-day itinerary", expected_output="A day-by-day plan", agent=local_expert),
    ],
)

if __name__ == "__main__":
    print(trip_crew.kickoff(inputs={"dates": "June", "city": "Lisbon"}))
