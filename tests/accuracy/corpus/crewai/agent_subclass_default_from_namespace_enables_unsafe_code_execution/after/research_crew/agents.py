"""The crew's agents, with their standing instructions as field defaults."""

from crewai import Agent

RUNS_CODE = {"allow_code_execution": True, "code_execution_mode": "unsafe"}


class ResearchAgent(Agent):
    role: str = "Market Researcher"
    goal: str = "Summarise a company's filings for an analyst and recommend whether to buy"
    backstory: str = "You read annual reports for a living and never guess a number."
    allow_code_execution: bool
    code_execution_mode: str
    locals().update(RUNS_CODE)


class SeniorResearchAgent(ResearchAgent):
    backstory: str = "You have covered this sector for twenty years and check every source twice."
