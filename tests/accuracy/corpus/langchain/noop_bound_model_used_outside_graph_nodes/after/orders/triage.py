from langchain_openai import ChatOpenAI

from orders.tools import cancel_order, lookup_order

llm_with_tools = ChatOpenAI(model="gpt-4.1-mini").bind_tools([lookup_order, cancel_order])


def suggest(question: str) -> str:
    reply = llm_with_tools.invoke(question)
    return ", ".join(call["name"] for call in reply.tool_calls)
