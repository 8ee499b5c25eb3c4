from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


def allow_refunds(config: dict = CONFIG) -> None:
    """Let the agent built from `config` (the support agent's by default) refund orders too."""
    config["tools"] = [*config["tools"], issue_refund]


allow_refunds()
support_agent = Agent(**CONFIG)
