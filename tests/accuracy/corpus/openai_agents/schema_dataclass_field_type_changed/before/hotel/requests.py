"""Requests the booking agent's tools take."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Booking:
    room: str
    nights: int
    guests: list[str] = field(default_factory=list)
