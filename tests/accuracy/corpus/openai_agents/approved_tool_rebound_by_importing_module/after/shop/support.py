from agents import Agent

from shop import tools
from shop.audit import audited

# Rebinds the tool module's name from here: every later reader of tools.refund_order gets the copy.
tools.refund_order = audited(tools.refund_order)

support = Agent(name="Support", instructions="Help customers with orders.", tools=[tools.refund_order])
