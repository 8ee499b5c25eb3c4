from langchain_core.prompts import ChatPromptTemplate
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph

from research.state import ResearchState

OUTLINE_PROMPT = ChatPromptTemplate.from_messages(
    [("system", "Write a short outline for an article on the topic."), ("user", "{topic}")]
)
WRITER_PROMPT = ChatPromptTemplate.from_messages(
    [("system", "Write the article from this outline."), ("user", "{outline}")]
)


def draft_outline(state: ResearchState) -> dict:
    llm = ChatOpenAI(model="gpt-4o-mini", temperature=0)
    reply = llm.invoke(OUTLINE_PROMPT.format_messages(topic=state["topic"]))
    return {"outline": reply.content}


def tools_for(state: ResearchState):
    from research.search import search_tools

    chosen = search_tools(state["topic"])
    return chosen, {t.name: t for t in chosen}


def write_article(state: ResearchState) -> dict:
    llm = ChatOpenAI(model="gpt-4o-mini", temperature=0)
    tools, _ = tools_for(state)
    reply = llm.bind_tools(tools).invoke(WRITER_PROMPT.format_messages(outline=state["outline"]))
    return {"article": reply.content}


builder = StateGraph(ResearchState)
builder.add_node("outline", draft_outline)
builder.add_node("write", write_article)
builder.add_edge(START, "outline")
builder.add_edge("outline", "write")
builder.add_edge("write", END)
graph = builder.compile()
