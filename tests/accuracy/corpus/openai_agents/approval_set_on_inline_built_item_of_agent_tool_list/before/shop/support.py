from agents import Agent, function_tool

from shop.tools import lookup_order, refund_order

support = Agent(
    name="Support",
    instructions="Help customers with orders.",
    tools=[function_tool(lookup_order), function_tool(refund_order, needs_approval=True)],
)
