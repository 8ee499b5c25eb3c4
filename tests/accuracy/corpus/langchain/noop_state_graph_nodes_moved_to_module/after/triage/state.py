from typing import TypedDict


class TicketState(TypedDict):
    ticket: str
    category: str
    reply: str
