"""Copy desk: checks drafts against the source documents."""

from crewai import Agent, Crew, Task
from crewai_tools import FileReadTool

fact_checker = Agent(
    role="Fact Checker",
    goal="Verify every figure in the draft against its source file",
    backstory="You trust documents, not memory.",
    tools=[FileReadTool()],
)

copy_crew = Crew(
    agents=[fact_checker],
    tasks=[Task(description="Check the draft about {topic}", expected_output="A list of corrections", agent=fact_checker)],
)
