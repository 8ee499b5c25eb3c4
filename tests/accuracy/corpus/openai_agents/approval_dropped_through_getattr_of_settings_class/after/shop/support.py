from agents import Agent

from shop.tools import refund_order

support = Agent(name="Support", instructions="Help customers with orders.", tools=[refund_order])
