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

    def use_large_model() -> None:
        config["model"] = "gpt-4o"
        config.update(instructions=config["instructions"] + " Escalate when unsure.")

    use_large_model()
    return config


ESCALATION = with_model(CONFIG)
support_agent = Agent(**CONFIG)
