from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph

from notes.state import NotesState

ITEMS_PROMPT = "List the action items agreed in this meeting transcript, one per line:\n\n{transcript}"


def extract_items(state: NotesState) -> dict:
    llm = ChatOpenAI(model="gpt-4o-mini", temperature=0)
    reply = llm.invoke(ITEMS_PROMPT.format(transcript=state["transcript"]))
    return {"action_items": reply.content}


builder = StateGraph(NotesState)
builder.add_node("items", extract_items)
builder.add_edge(START, "items")
builder.add_edge("items", END)
meeting_notes = builder.compile()
