from pydantic_ai import Agent

from payments.operations import payment_status, refund_tool

assistant = Agent(
    "openai:gpt-4o",
    name="payments_assistant",
    instructions="Answer questions about payments. Refund only what the policy allows.",
    tools=[payment_status, refund_tool],
)
