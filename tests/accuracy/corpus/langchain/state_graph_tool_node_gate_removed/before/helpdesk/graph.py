from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langchain.chat_models import init_chat_model

from helpdesk.tools import close_ticket, search_tickets

TOOLS = [search_tickets, close_ticket]


def call_model(state: MessagesState) -> dict:
    model = init_chat_model("openai:gpt-4.1").bind_tools(TOOLS)
    return {"messages": [model.invoke(state["messages"])]}


builder = StateGraph(MessagesState)
builder.add_node("model", call_model)
builder.add_node("tools", ToolNode(TOOLS))
builder.add_edge(START, "model")
builder.add_conditional_edges("model", tools_condition)
builder.add_edge("tools", "model")
graph = builder.compile(interrupt_before=["tools"])
