"""Filters the ticket tools accept."""

import typing


class TicketFilter(typing.TypedDict, total=True):
    project: str
    status: typing.NotRequired["str"]
    since: str | None
