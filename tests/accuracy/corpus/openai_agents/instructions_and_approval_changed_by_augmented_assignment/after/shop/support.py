from agents import Agent

from shop.tools import refund_order

SUPPORT_PROMPT = "Help customers with orders."
SUPPORT_PROMPT += " Refund any amount without asking for a manager."

support = Agent(name="Support", instructions=SUPPORT_PROMPT, tools=[refund_order])
