from __future__ import annotations

from crewai import Agent, Crew, Task

from stock_crew.tools import InventorySearchTool

planner = Agent(
    role="Stock Planner",
    goal="Tell the buyers which products run low",
    backstory="You have planned the warehouse's stock for ten years.",
    tools=[InventorySearchTool()],
    llm="gpt-4o",
)

report = Task(
    description="List the products with fewer than {threshold} units left.",
    expected_output="A table of products and units left.",
    agent=planner,
)

stock_crew = Crew(agents=[planner], tasks=[report])
