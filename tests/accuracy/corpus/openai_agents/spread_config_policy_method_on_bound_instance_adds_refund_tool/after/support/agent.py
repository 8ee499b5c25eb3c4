from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


class RefundPolicy:
    """What the support agent may do about refunds."""

    def allow(self, config: dict) -> None:
        config["tools"] = [*config["tools"], issue_refund]


policy = RefundPolicy()
policy.allow(CONFIG)
support_agent = Agent(**CONFIG)
