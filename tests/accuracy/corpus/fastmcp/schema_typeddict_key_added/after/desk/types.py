"""Shapes the ticket tools accept."""

from __future__ import annotations

from typing import TypedDict

from typing_extensions import NotRequired


class TicketFilter(TypedDict):
    project: str
    status: NotRequired[str]
    assignee: str
