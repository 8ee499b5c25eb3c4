from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}

try:
    from support import refunds_policy

    refunds_policy.check_enabled()
    CONFIG["tools"] = [lookup_order, issue_refund]
except ImportError:
    pass

support_agent = Agent(**CONFIG)
