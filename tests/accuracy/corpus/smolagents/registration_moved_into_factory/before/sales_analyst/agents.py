from __future__ import annotations

from smolagents import CodeAgent, InferenceClientModel, ToolCallingAgent, WebSearchTool

from sales_analyst.tools import SQLQueryTool, get_sales

model = InferenceClientModel(model_id="Qwen/Qwen2.5-Coder-32B-Instruct")

web_agent = ToolCallingAgent(
    tools=[WebSearchTool()],
    model=model,
    name="web_researcher",
    description="Searches the web for market news. Give it a precise question.",
    max_steps=6,
)

analyst = CodeAgent(
    tools=[get_sales, SQLQueryTool()],
    model=model,
    managed_agents=[web_agent],
    additional_authorized_imports=["pandas", "numpy"],
    name="sales_analyst",
    instructions="Answer sales questions with numbers from the warehouse; cite the SQL you ran.",
)
