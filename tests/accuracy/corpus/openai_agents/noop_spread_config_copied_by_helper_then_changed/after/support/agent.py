from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


def with_model(config: dict, model: str) -> dict:
    """The settings of `config` with another model, for the offline evaluation (`config` is left as it is)."""
    config = dict(config)
    config["model"] = model
    return config


EVAL_CONFIG = with_model(CONFIG, "gpt-4o")
support_agent = Agent(**CONFIG)
