"""Hotel booking agent."""

from __future__ import annotations

from agents import Agent, function_tool

from hotel.requests import Booking


@function_tool
def book_room(booking: Booking) -> str:
    """Book a room for the given nights."""
    return f"booked {booking.room} for {booking.nights} nights"


booking_agent = Agent(name="Booking agent", instructions="Book hotel rooms for guests.", tools=[book_room])
