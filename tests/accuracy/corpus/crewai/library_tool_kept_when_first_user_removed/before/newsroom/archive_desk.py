"""Archive desk: digs through stored press releases."""

from crewai import Agent, Crew, Task
from crewai_tools.tools import FileReadTool

archivist = Agent(
    role="Archivist",
    goal="Find the press releases that mention the topic",
    backstory="You have catalogued the newsroom archive for twenty years.",
    tools=[FileReadTool()],
)

archive_crew = Crew(
    agents=[archivist],
    tasks=[Task(description="Collect releases about {topic}", expected_output="A list of quotes", agent=archivist)],
)
