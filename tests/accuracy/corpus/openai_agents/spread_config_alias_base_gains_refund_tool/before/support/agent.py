from agents import Agent

from support.tools import issue_refund, lookup_order

BASE_CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}

CONFIG = BASE_CONFIG
CONFIG["model"] = "gpt-4o"

support_agent = Agent(**CONFIG)
