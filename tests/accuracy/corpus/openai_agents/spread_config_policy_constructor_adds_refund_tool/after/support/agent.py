from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


class RefundPolicy:
    """Lets the agent built from `config` refund orders too."""

    def __init__(self, config: dict) -> None:
        config["tools"] = [*config["tools"], issue_refund]


RefundPolicy(CONFIG)
support_agent = Agent(**CONFIG)
