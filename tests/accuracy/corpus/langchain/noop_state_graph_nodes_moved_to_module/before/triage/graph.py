from typing import TypedDict

from langchain_anthropic import ChatAnthropic
from langgraph.graph import StateGraph

llm = ChatAnthropic(model="claude-sonnet-4-5", temperature=0)


class TicketState(TypedDict):
    ticket: str
    category: str
    reply: str


def classify(state: TicketState) -> dict:
    answer = llm.invoke(f"Classify this support ticket as billing, bug or other: {state['ticket']}")
    return {"category": answer.content.strip().lower()}


def draft_reply(state: TicketState) -> dict:
    answer = llm.invoke(f"Draft a reply to this {state['category']} ticket: {state['ticket']}")
    return {"reply": answer.content}


builder = StateGraph(TicketState)
builder.add_node("classify", classify)
builder.add_node("draft_reply", draft_reply)
builder.set_entry_point("classify")
builder.add_edge("classify", "draft_reply")
builder.set_finish_point("draft_reply")
triage_graph = builder.compile()
