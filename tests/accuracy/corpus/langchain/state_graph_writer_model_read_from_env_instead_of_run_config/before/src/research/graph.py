from langchain.chat_models import init_chat_model
from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph

from research.state import ResearchState


def tools_for(config: RunnableConfig):
    from research.search import configured_tools

    chosen = configured_tools(config)
    return chosen, {t.name: t for t in chosen}


def draft_outline(state: ResearchState, config: RunnableConfig) -> dict:
    planner_model = config["configurable"]["planner_model"]
    llm = init_chat_model(model=planner_model)
    reply = llm.invoke([HumanMessage(content=f"Outline an article on {state['topic']}")])
    return {"outline": reply.content}


def write_article(state: ResearchState, config: RunnableConfig) -> dict:
    writer_model = config["configurable"]["writer_model"]
    llm = init_chat_model(model=writer_model)
    tools, _ = tools_for(config)
    reply = llm.bind_tools(tools).invoke([HumanMessage(content=state["outline"])])
    return {"article": reply.content}


builder = StateGraph(ResearchState)
builder.add_node("outline", draft_outline)
builder.add_node("write", write_article)
builder.add_edge(START, "outline")
builder.add_edge("outline", "write")
builder.add_edge("write", END)
graph = builder.compile()
