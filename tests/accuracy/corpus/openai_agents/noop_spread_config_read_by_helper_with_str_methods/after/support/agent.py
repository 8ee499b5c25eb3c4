from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}


def banner(config: dict) -> str:
    """A fixed-width line naming the agent, for the console log."""
    if config["name"].isupper():
        return config["name"].center(40, "=")
    name = config["name"]
    return name.ljust(40).swapcase() + str(len(config["tools"])).zfill(3)


BANNER = banner(CONFIG)
support_agent = Agent(**CONFIG)
