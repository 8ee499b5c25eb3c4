
from __future__ import annotations

import os

from smolagents import CodeAgent, InferenceClientModel, ToolCallingAgent, WebSearchTool

from sales_analyst.tools import SQLQueryTool, export_csv, get_sales

analyst_tools = [get_sales, SQLQueryTool()]
if os.getenv("ANALYST_EXPORTS"):
    analyst_tools.append(export_csv)

model = InferenceClientModel(model_id="Qwen/Qwen2.5-Coder-32B-Instruct")

web_agent = ToolCallingAgent(
    tools=[WebSearchTool()],
    model=model,
    name="web_researcher",
    description="Searches the web for market news. Give it a precise question.",
    max_steps=6,
)

analyst = CodeAgent(
    tools=analyst_tools,
    model=model,
    managed_agents=[web_agent],
    additional_authorized_imports=["pandas", "numpy"],
    name="sales_analyst",
    instructions="Answer sales questions with numbers from the warehouse; cite the SQL you ran.",
)
