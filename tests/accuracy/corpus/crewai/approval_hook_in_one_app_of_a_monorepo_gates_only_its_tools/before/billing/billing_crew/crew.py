from crewai import Agent, Crew, Task
from crewai.tools import tool


@tool("Issue Refund")
def issue_refund(order_id: str) -> str:
    """Refund an order in full."""
    return order_id


clerk = Agent(role="Billing Clerk", goal="Settle billing tickets", backstory="You keep the books.", tools=[issue_refund], llm="gpt-4o")
settle = Task(description="Settle {ticket}.", expected_output="The reply.", agent=clerk)
billing = Crew(agents=[clerk], tasks=[settle])
