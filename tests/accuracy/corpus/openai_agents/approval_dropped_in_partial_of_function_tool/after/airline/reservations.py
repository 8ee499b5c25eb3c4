"""Stand-in for the reservation system API."""

from __future__ import annotations

_FAQ = {
    "bag": "You are allowed to bring one bag on the plane. It must be under 50 pounds.",
    "wifi": "We have free wifi on the plane, join Airline-Wifi.",
}


def faq_answer(question: str) -> str:
    for key, answer in _FAQ.items():
        if key in question.lower():
            return answer
    return "I'm sorry, I don't know the answer to that question."


def move_passenger(confirmation_number: str, seat: str) -> str:
    return f"Updated seat to {seat} for confirmation number {confirmation_number}"


def cancel(confirmation_number: str) -> str:
    return f"Cancelled {confirmation_number}"
