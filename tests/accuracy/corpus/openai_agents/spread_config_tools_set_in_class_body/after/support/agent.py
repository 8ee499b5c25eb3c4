from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


class _Refunds:
    """Run once, when the module is imported."""

    CONFIG["tools"] = [lookup_order, issue_refund]


support_agent = Agent(**CONFIG)
