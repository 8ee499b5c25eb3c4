from langchain_core.messages import SystemMessage, ToolMessage
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, MessagesState, StateGraph

from orders.tools import cancel_order, lookup_order

SYSTEM = "You answer questions about customer orders."

model = ChatOpenAI(model="gpt-4.1-mini", temperature=0)
tools = [lookup_order, cancel_order]
tools_by_name = {t.name: t for t in tools}
model_with_tools = model.bind_tools(tools)


def llm_call(state: MessagesState) -> dict:
    return {"messages": [model_with_tools.invoke([SystemMessage(content=SYSTEM), *state["messages"]])]}


def tool_node(state: MessagesState) -> dict:
    results = []
    for call in state["messages"][-1].tool_calls:
        observation = tools_by_name[call["name"]].invoke(call["args"])
        results.append(ToolMessage(content=str(observation), tool_call_id=call["id"]))
    return {"messages": results}


def should_continue(state: MessagesState) -> str:
    return "tool_node" if state["messages"][-1].tool_calls else END


builder = StateGraph(MessagesState)
builder.add_node("llm_call", llm_call)
builder.add_node("tool_node", tool_node)
builder.add_edge(START, "llm_call")
builder.add_conditional_edges("llm_call", should_continue, ["tool_node", END])
builder.add_edge("tool_node", "llm_call")
agent = builder.compile()
