from crewai import Agent, Crew, Task
from crewai.tools import tool


@tool("Drop Table")
def drop_table(name: str) -> str:
    """Drop a table in the lab database."""
    return name


agent = Agent(role="Lab Assistant", goal="Tidy the lab database", backstory="You clean up experiments.", tools=[drop_table], llm="gpt-4o")
tidy = Task(description="Tidy {schema}.", expected_output="What was dropped.", agent=agent)
lab = Crew(agents=[agent], tasks=[tidy])
