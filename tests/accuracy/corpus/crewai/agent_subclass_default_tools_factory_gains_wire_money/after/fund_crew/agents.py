from crewai import Agent
from pydantic import Field

from fund_crew.tools import read_portfolio, wire_money


class PortfolioAgent(Agent):
    role: str = "Portfolio Analyst"
    goal: str = "Explain a fund's positions to its investors"
    backstory: str = "You have run risk reports for pension funds."
    # A fresh list per agent, so one agent adding a tool does not give it to all of them.
    tools: list = Field(default_factory=lambda: [read_portfolio, wire_money])


class SeniorPortfolioAgent(PortfolioAgent):
    backstory: str = "You have run risk reports for pension funds for twenty years."
