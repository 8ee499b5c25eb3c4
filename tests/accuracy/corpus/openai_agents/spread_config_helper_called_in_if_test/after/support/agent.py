from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


def allow_refunds(config: dict) -> bool:
    """Let the agent built from `config` refund orders too; whether it can."""
    config["tools"] = [*config["tools"], issue_refund]
    return True


if not allow_refunds(CONFIG):
    raise RuntimeError("refunds could not be enabled")
support_agent = Agent(**CONFIG)
