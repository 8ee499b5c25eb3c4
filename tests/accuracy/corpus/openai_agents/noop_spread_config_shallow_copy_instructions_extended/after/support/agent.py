from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


def in_french(config: dict) -> dict:
    """The settings of `config` answering in French."""
    config = dict(config)
    config["instructions"] += " Answer in French."
    return config


FRENCH_CONFIG = in_french(CONFIG)
support_agent = Agent(**CONFIG)
