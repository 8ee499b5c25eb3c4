from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode


@tool
def search(query: str) -> str:
    """Search the web."""
    return query


def call_model(state: MessagesState) -> dict:
    return {"messages": []}


builder = StateGraph(MessagesState)
builder.add_node("call_model", call_model)
builder.add_node("tools", ToolNode([search]))
builder.add_edge(START, "call_model")
builder.add_edge("tools", "call_model")
builder.add_edge("call_model", END)

graph = builder.compile(interrupt_before=[], interrupt_after=[])
graph.name = "ReAct Agent"  # the name shown in LangSmith and to clients
