from crewai import Agent, Crew, Task

from fund_crew.agents import PortfolioAgent
from fund_crew.tools import wire_money

analyst = PortfolioAgent(llm="gpt-4o")

treasurer = Agent(
    role="Treasurer",
    goal="Pay the fund's bills on time",
    backstory="You have paid invoices for ten years and check every account number twice.",
    tools=[wire_money],
    llm="gpt-4o",
)

explain = Task(description="Explain the positions of {fund} to an investor.", expected_output="One page, plain words.", agent=analyst)
pay = Task(description="Pay the invoices due for {fund}.", expected_output="The payments made.", agent=treasurer)

fund_crew = Crew(agents=[analyst, treasurer], tasks=[explain, pay])
