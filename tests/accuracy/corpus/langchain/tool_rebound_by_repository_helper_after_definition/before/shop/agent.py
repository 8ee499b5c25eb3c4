from langchain.agents import create_agent

from shop.tools import delete_customer

admin = create_agent("openai:gpt-4o", tools=[delete_customer], name="admin")
