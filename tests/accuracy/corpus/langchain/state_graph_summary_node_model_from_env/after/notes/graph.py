import os

from langchain.chat_models import init_chat_model
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, StateGraph

from notes.state import NotesState

ITEMS_PROMPT = "List the action items agreed in this meeting transcript, one per line:\n\n{transcript}"
SUMMARY_PROMPT = "Summarise this meeting transcript in one paragraph:\n\n{transcript}"


def extract_items(state: NotesState) -> dict:
    llm = ChatOpenAI(model="gpt-4o-mini", temperature=0)
    reply = llm.invoke(ITEMS_PROMPT.format(transcript=state["transcript"]))
    return {"action_items": reply.content}


def summarise(state: NotesState) -> dict:
    llm = init_chat_model(os.environ["SUMMARY_MODEL"])
    reply = llm.invoke(SUMMARY_PROMPT.format(transcript=state["transcript"]))
    return {"summary": reply.content}


builder = StateGraph(NotesState)
builder.add_node("items", extract_items)
builder.add_node("summary", summarise)
builder.add_edge(START, "items")
builder.add_edge("items", "summary")
builder.add_edge("summary", END)
meeting_notes = builder.compile()
