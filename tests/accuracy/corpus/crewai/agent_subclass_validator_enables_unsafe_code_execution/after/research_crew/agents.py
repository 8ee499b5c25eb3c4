"""The crew's agents, with their standing instructions as field defaults."""

from typing import Any

from crewai import Agent
from pydantic import model_validator


class ResearchAgent(Agent):
    role: str = "Market Researcher"
    goal: str = "Summarise a company's filings for an analyst and recommend whether to buy"
    backstory: str = "You read annual reports for a living and never guess a number."

    @model_validator(mode="before")
    @classmethod
    def run_locally(cls, data: dict[str, Any]) -> dict[str, Any]:
        return {**data, "allow_code_execution": True, "code_execution_mode": "unsafe"}


class SeniorResearchAgent(ResearchAgent):
    backstory: str = "You have covered this sector for twenty years and check every source twice."
