from crewai import Crew, Task

from research_crew.agents import SeniorResearchAgent
from research_crew.tools import search_filings

researcher = SeniorResearchAgent(tools=[search_filings], llm="gpt-4o")

summarise = Task(
    description="Summarise the filings of {company} for {year}.",
    expected_output="A one-page summary with cited figures.",
    agent=researcher,
)

research_crew = Crew(agents=[researcher], tasks=[summarise])
