import os

from langchain_classic.agents import create_tool_calling_agent
from langchain_openai import ChatOpenAI


def build_routed_agent(tools, prompt):
    # The model is picked per deployment: nothing in the source says which one runs.
    llm = ChatOpenAI(model=os.environ["HELPDESK_MODEL"], temperature=0)
    return create_tool_calling_agent(llm, tools, prompt)
