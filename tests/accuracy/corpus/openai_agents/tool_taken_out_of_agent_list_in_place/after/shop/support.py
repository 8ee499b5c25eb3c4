from agents import Agent

from shop.tools import lookup_order, refund_order

support = Agent(name="Support", instructions="Help customers with orders.", tools=[lookup_order, refund_order])

# Support stops offering refunds.
support.tools.remove(refund_order)
