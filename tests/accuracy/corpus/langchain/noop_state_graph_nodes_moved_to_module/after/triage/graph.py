from langgraph.graph import StateGraph

from triage.nodes import classify, draft_reply
from triage.state import TicketState

builder = StateGraph(TicketState)
builder.add_sequence([classify, ("draft_reply", draft_reply)])
builder.set_entry_point("classify")
builder.set_finish_point("draft_reply")
triage_graph = builder.compile()
