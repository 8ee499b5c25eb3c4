"""Notebook helpers; not deployed."""

from smolagents import CodeAgent, InferenceClientModel

from sales_analyst.tools import get_sales

_scratch = CodeAgent(tools=[get_sales], model=InferenceClientModel(), additional_authorized_imports=["*"])
