"""Market scout: searches the web for competitor launches."""

from crewai import Agent, Crew, Process, Task
from crewai_tools import SerperDevTool, ScrapeWebsiteTool

scout = Agent(
    role="Market Scout",
    goal="Spot competitor product launches for {company}",
    backstory="A former analyst who reads every launch page.",
    tools=[SerperDevTool(), ScrapeWebsiteTool()],
)

launch_task = Task(
    description="List launches by competitors of {company} this quarter.",
    expected_output="A bullet list with links",
    agent=scout,
)

crew = Crew(agents=[scout], tasks=[launch_task], process=Process.sequential)
