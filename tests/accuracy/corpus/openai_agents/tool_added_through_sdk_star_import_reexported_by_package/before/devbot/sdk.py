"""The agents SDK, imported in one place so the pinned version is swapped here only."""

from agents import *  # noqa: F401,F403
