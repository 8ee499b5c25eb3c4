from airline.tools.faq import faq_lookup
from airline.tools.seats import cancel_booking, update_seat

__all__ = ["cancel_booking", "faq_lookup", "update_seat"]
