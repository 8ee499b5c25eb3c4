from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


def with_model(config: dict) -> dict:
    """The settings of `config` on the larger model, for the escalation desk."""
    config = dict(config)
    escalation = config
    escalation["model"] = "gpt-4o"
    escalation.update(instructions=config["instructions"] + " Escalate when unsure.")
    return escalation


ESCALATION = with_model(CONFIG)
support_agent = Agent(**CONFIG)
