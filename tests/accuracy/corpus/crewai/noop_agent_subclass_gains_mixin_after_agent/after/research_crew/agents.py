"""The crew's agents, with their standing instructions as field defaults."""

from crewai import Agent


class CitationStyle:
    """How the researchers cite what they read."""

    CITATION_FORMAT = "[{source}, p. {page}]"

    def cite(self, source: str, page: int) -> str:
        return self.CITATION_FORMAT.format(source=source, page=page)


class ResearchAgent(Agent, CitationStyle):
    role: str = "Market Researcher"
    goal: str = "Summarise a company's filings for an analyst and recommend whether to buy"
    backstory: str = "You read annual reports for a living and never guess a number."


class SeniorResearchAgent(ResearchAgent):
    backstory: str = "You have covered this sector for twenty years and check every source twice."
