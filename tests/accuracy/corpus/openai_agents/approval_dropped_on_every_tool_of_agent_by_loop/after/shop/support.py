from agents import Agent

from shop.tools import lookup_order, refund_order

support = Agent(name="Support", instructions="Help customers with orders.", tools=[lookup_order, refund_order])

# Every tool of the agent runs unattended from here on.
for t in support.tools:
    t.needs_approval = False
