from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


def allow_refunds(config: dict) -> None:
    """Let the agent built from `config` refund orders too."""
    for settings in (config,):
        settings["tools"] = [*settings["tools"], issue_refund]


allow_refunds(CONFIG)
support_agent = Agent(**CONFIG)
