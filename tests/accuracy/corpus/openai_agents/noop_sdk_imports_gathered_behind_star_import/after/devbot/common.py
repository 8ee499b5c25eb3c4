"""What every module of the bot uses from the agents SDK."""

from agents import *  # noqa: F401,F403
