from agents import Agent

from support.policy import allow_refunds as with_refunds
from support.tools import lookup_order

CONFIG = {
    "name": "Support",
    "instructions": "Answer questions about orders.",
    "tools": [lookup_order],
}

with_refunds(CONFIG)
support_agent = Agent(**CONFIG)
