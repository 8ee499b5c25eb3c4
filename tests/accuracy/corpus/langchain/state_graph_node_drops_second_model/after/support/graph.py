from langchain_core.messages import SystemMessage
from langgraph.graph import END, START, MessagesState, StateGraph

from support.llms import fast_llm

ROUTER_PROMPT = "Classify the customer's last message as billing, shipping or other. Answer with one word."
ANSWER_PROMPT = "You are a courteous support agent. Answer the customer's question in three sentences at most."


def route(state: MessagesState) -> dict:
    reply = fast_llm.invoke([SystemMessage(ROUTER_PROMPT), *state["messages"]])
    return {"messages": [reply]}


def answer(state: MessagesState) -> dict:
    reply = fast_llm.invoke([SystemMessage(ANSWER_PROMPT), *state["messages"]])
    return {"messages": [reply]}


builder = StateGraph(MessagesState)
builder.add_node("route", route)
builder.add_node("answer", answer)
builder.add_edge(START, "route")
builder.add_edge("route", "answer")
builder.add_edge("answer", END)
support_graph = builder.compile()
