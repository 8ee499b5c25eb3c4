"""Public shapes of the desk tools."""

from desk.schemas.filters import TicketFilter

__all__ = ["TicketFilter"]
