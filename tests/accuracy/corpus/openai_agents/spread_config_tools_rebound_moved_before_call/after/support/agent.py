from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
    "model": "gpt-4o",
}

# The back-office console builds its own agent from the same settings, with refunds.
CONFIG["tools"] = [lookup_order, issue_refund]

support_agent = Agent(**CONFIG)
