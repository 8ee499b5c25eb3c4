from agents import Agent

from support.tools import lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


def describe(*configs: dict) -> str:
    """The names of the agents built from `configs`, for the logs."""
    names = []
    for config in configs:
        names.append(config["name"].upper())
    return ", ".join(names)


DESCRIPTION = describe(CONFIG)
support_agent = Agent(**CONFIG)
