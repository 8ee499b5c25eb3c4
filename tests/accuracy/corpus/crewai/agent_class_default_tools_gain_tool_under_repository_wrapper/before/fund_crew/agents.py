from crewai import Agent

from fund_crew.tools import read_portfolio, wire_money


class PortfolioAgent(Agent):
    role: str = "Portfolio Analyst"
    goal: str = "Explain a fund's positions to its investors"
    backstory: str = "You have run risk reports for pension funds."
    tools: list = [read_portfolio]
