from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


def allow_refunds(*configs: dict) -> None:
    """Let the agents built from `configs` refund orders too."""
    for config in configs:
        config["tools"] = [*config["tools"], issue_refund]


allow_refunds(CONFIG)
support_agent = Agent(**CONFIG)
