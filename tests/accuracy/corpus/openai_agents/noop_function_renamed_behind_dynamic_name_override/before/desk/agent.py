from __future__ import annotations

from agents import Agent

from desk.tools import open_ticket_v1

helpdesk = Agent(name="Help Desk", instructions="Open tickets for users.", tools=[open_ticket_v1], model="gpt-4.1")
