from crewai import Crew, Task

from fund_crew.agents import SeniorPortfolioAgent

analyst = SeniorPortfolioAgent(llm="gpt-4o")

explain = Task(
    description="Explain the positions of {fund} to an investor.",
    expected_output="One page, plain words.",
    agent=analyst,
)

fund_crew = Crew(agents=[analyst], tasks=[explain])
