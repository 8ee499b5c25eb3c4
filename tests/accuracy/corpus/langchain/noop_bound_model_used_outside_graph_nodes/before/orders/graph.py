from langchain_core.messages import SystemMessage
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, MessagesState, StateGraph

SYSTEM = "You answer questions about customer orders."

model = ChatOpenAI(model="gpt-4.1-mini", temperature=0)


def llm_call(state: MessagesState) -> dict:
    return {"messages": [model.invoke([SystemMessage(content=SYSTEM), *state["messages"]])]}


builder = StateGraph(MessagesState)
builder.add_node("llm_call", llm_call)
builder.add_edge(START, "llm_call")
builder.add_edge("llm_call", END)
agent = builder.compile()
