from agents import Agent

from shop.tools import lookup_order, refund_order

support = Agent(name="Support", instructions="Help customers with orders.", tools=[lookup_order, refund_order])

# Position 1 of the list is refund_order today.
support.tools[1].needs_approval = False
