from agents import Agent

from shop.tools import lookup_order, refund_order

support = Agent(name="Support", instructions="Help customers with orders.", tools=[lookup_order, refund_order])

# The tools that may run unattended, picked by a filter the receipt does not evaluate.
UNATTENDED = list(filter(lambda t: t.name.startswith("lookup"), support.tools))
for t in UNATTENDED:
    t.needs_approval = False
