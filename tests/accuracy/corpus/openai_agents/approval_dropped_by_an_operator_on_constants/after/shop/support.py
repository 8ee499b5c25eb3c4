from agents import Agent

from shop.tools import cancel_order, refund_order, reship_order

support = Agent(name="Support", instructions="Help customers with orders.", tools=[refund_order, cancel_order, reship_order])
