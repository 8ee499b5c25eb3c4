from agents import Agent

from support.tools import lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
    "model": "gpt-4o",
}

support_agent = Agent(**CONFIG)

# The nightly evaluation reads the same settings with a cheaper model; the agent above keeps its own.
CONFIG["model"] = "gpt-4o-mini"
