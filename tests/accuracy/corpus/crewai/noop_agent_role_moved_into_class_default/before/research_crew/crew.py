from crewai import Agent, Crew, Task

from research_crew.agents import SENIOR_BACKSTORY
from research_crew.tools import search_filings

researcher = Agent(
    role="Market Researcher",
    goal="Summarise a company's filings for an analyst, citing every figure",
    backstory=SENIOR_BACKSTORY,
    tools=[search_filings],
    llm="gpt-4o",
)

summarise = Task(
    description="Summarise the filings of {company} for {year}.",
    expected_output="A one-page summary with cited figures.",
    agent=researcher,
)

research_crew = Crew(agents=[researcher], tasks=[summarise])
