from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


def with_refunds(config: dict) -> dict:
    """The settings of `config` that also refund orders."""
    config = dict(config)
    config["tools"] += [issue_refund]
    return config


REFUND_CONFIG = with_refunds(CONFIG)
support_agent = Agent(**CONFIG)
