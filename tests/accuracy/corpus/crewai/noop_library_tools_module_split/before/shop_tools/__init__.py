"""Shop tools for CrewAI agents."""

from shop_tools.tools import *  # noqa: F403
