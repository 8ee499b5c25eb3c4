from __future__ import annotations

from crewai import Agent, Crew, Task

from research.tools import lookup

researcher = Agent(role="Researcher", goal="Find papers", backstory="A careful librarian.", tools=[lookup])
task = Task(description="Find the paper", expected_output="A citation", agent=researcher)
crew = Crew(agents=[researcher], tasks=[task])
