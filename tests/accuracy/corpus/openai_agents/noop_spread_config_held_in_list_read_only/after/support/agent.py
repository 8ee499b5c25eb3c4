from agents import Agent

from support.tools import issue_refund, lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}
ALL_CONFIGS = [CONFIG]
ALL_CONFIGS[0] = {"name": "Archive"}
print(CONFIG.get("tools"))
support_agent = Agent(**CONFIG)
