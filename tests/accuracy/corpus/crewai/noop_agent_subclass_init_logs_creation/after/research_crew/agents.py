"""The crew's agents, with their standing instructions as field defaults."""

import logging
from typing import Any

from crewai import Agent
from pydantic import model_validator

logger = logging.getLogger(__name__)


class ResearchAgent(Agent):
    role: str = "Market Researcher"
    goal: str = "Summarise a company's filings for an analyst and recommend whether to buy"
    backstory: str = "You read annual reports for a living and never guess a number."

    def __init__(self, **data: Any) -> None:
        super().__init__(**data)
        logger.info("research agent ready: %s", self.role)

    @model_validator(mode="after")
    def goal_is_set(self) -> "ResearchAgent":
        if not self.goal.strip():
            raise ValueError("a research agent needs a goal")
        return self


class SeniorResearchAgent(ResearchAgent):
    backstory: str = "You have covered this sector for twenty years and check every source twice."
