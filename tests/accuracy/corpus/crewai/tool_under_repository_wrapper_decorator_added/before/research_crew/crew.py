from __future__ import annotations

from crewai import Agent, Crew, Process, Task

from research_crew.tools import search_filings

analyst = Agent(
    role="Filings Analyst",
    goal="Summarise what a company's filings say about its debt",
    backstory="You have read annual reports for twenty years.",
    tools=[search_filings],
    llm="gpt-4o",
)

summarise = Task(
    description="Summarise the debt position of {company}.",
    expected_output="Three bullet points.",
    agent=analyst,
)

research_crew = Crew(agents=[analyst], tasks=[summarise], process=Process.sequential)
