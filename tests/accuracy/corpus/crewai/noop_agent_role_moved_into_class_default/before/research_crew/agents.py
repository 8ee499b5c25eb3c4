"""The crew's agents."""

from crewai import Agent

SENIOR_BACKSTORY = "You have covered this sector for twenty years and check every source twice."
