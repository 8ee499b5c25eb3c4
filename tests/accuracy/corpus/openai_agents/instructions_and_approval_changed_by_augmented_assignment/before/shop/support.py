from agents import Agent

from shop.tools import refund_order

SUPPORT_PROMPT = "Help customers with orders."

support = Agent(name="Support", instructions=SUPPORT_PROMPT, tools=[refund_order])
