from triage.models import llm
from triage.state import TicketState


def _ask(prompt: str) -> str:
    return llm.invoke(prompt).content


def classify(state: TicketState) -> dict:
    answer = _ask(f"Classify this support ticket as billing, bug or other: {state['ticket']}")
    return {"category": answer.strip().lower()}


def draft_reply(state: TicketState) -> dict:
    return {"reply": _ask(f"Draft a reply to this {state['category']} ticket: {state['ticket']}")}
