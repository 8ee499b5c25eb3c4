"""Function tools shared by the airline agents."""

from __future__ import annotations

from agents import RunContextWrapper, function_tool

from airline.context import AirlineAgentContext
from airline import reservations
from airline.policy import staff_approved

@function_tool(name_override="faq_lookup_tool", description_override="Lookup frequently asked questions.")
async def faq_lookup(question: str) -> str:
    return reservations.faq_answer(question)


@function_tool
async def update_seat(context: RunContextWrapper[AirlineAgentContext], confirmation_number: str, new_seat: str) -> str:
    """Update the seat for a given confirmation number.

    Args:
        confirmation_number: The confirmation number for the flight.
        new_seat: The new seat to update to.
    """
    context.context.confirmation_number = confirmation_number
    context.context.seat_number = new_seat
    return reservations.move_passenger(confirmation_number, new_seat)


@staff_approved
async def cancel_booking(context: RunContextWrapper[AirlineAgentContext], confirmation_number: str) -> str:
    """Cancel the booking and refund it to the original form of payment."""
    return reservations.cancel(confirmation_number)
