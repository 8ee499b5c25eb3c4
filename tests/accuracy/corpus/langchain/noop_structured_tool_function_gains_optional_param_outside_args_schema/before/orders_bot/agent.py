from __future__ import annotations

from langchain.agents import create_agent

from orders_bot.tools import search_orders

orders_agent = create_agent(
    "openai:gpt-4.1",
    tools=[search_orders],
    system_prompt="Help customers find their orders. Never reveal another customer's orders.",
    name="orders_agent",
)
