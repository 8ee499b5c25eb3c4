"""Shapes the ticket tools accept."""

from __future__ import annotations

from typing import Optional, TypedDict

from typing_extensions import NotRequired


class TicketFilter(TypedDict):
    project: str
    status: NotRequired[str]
    since: Optional[str]
