from crewai import Agent
from pydantic import Field

from fund_crew.tools import read_portfolio


class PortfolioAgent(Agent):
    """The analyst every fund crew starts from.

    Subclasses change the backstory only.
    """

    role: str = "Portfolio Analyst"
    goal: str = "Explain a fund's positions to its investors"
    backstory: str = "You have run risk reports for pension funds."
    # A fresh list per agent, so one agent adding a tool does not give it to all of them.
    tools: list = Field(default_factory=lambda: [read_portfolio])


class SeniorPortfolioAgent(PortfolioAgent):
    backstory: str = "You have run risk reports for pension funds for twenty years."
