from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent
from langgraph_supervisor import create_handoff_tool, create_supervisor


@tool
def refund_order(order_id: str, amount: float) -> str:
    """Refund part or all of an order."""
    return f"refunded {amount} on {order_id}"


billing_agent = create_react_agent("openai:gpt-4.1", tools=[refund_order], prompt="You handle refunds.", name="billing")

supervisor = create_supervisor(
    [billing_agent],
    model=ChatOpenAI(model="gpt-4.1"),
    tools=[create_handoff_tool(agent_name="billing", name="transfer_to_billing", description="Ask agent 'billing' for help")],
    prompt="Route refund questions to billing.",
).compile()
