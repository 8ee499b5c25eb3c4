from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


class RefundPilot:
    """Pilot settings, applied when this module is imported."""

    CONFIG["tools"][1:] = [issue_refund]


support_agent = Agent(**CONFIG)
