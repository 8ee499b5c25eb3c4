from langchain_classic.agents import AgentExecutor, create_tool_calling_agent
from langchain_openai import ChatOpenAI

from helpdesk.prompts import ORDERS_PROMPT
from helpdesk.tools import lookup_order

llm = ChatOpenAI(model="gpt-4o-mini", temperature=0)
tools = [lookup_order]

executor = AgentExecutor(agent=create_tool_calling_agent(llm, tools, prompt=ORDERS_PROMPT), tools=tools, max_iterations=5)
