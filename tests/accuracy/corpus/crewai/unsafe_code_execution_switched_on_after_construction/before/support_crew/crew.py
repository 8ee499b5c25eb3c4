from __future__ import annotations

from crewai import Agent, Crew, Process, Task

from support_crew import hooks  # noqa: F401  (registers the approval hook)
from support_crew.tools import RefundTool, lookup_order

triager = Agent(
    role="Support Triager",
    goal="Understand the customer's problem and route it to the right specialist",
    backstory="You have answered shop tickets for years and know every policy by heart.",
    tools=[lookup_order],
    llm="gpt-4o",
)

refunds_specialist = Agent(
    role="Refunds Specialist",
    goal="Refund customers exactly what the refund policy allows",
    backstory="You are careful with money and always check the order first.",
    tools=[lookup_order, RefundTool()],
    llm="gpt-4o",
)

triage = Task(
    description="Read the ticket {ticket} and decide what the customer needs.",
    expected_output="A short summary and the specialist to hand the ticket to.",
    agent=triager,
)
resolve = Task(
    description="Resolve the ticket according to policy.",
    expected_output="The reply to send to the customer.",
    agent=refunds_specialist,
)

support_crew = Crew(agents=[triager, refunds_specialist], tasks=[triage, resolve], process=Process.sequential)
