from __future__ import annotations

from agents import Agent

from desk.tools import create_ticket

helpdesk = Agent(name="Help Desk", instructions="Open tickets for users.", tools=[create_ticket], model="gpt-4.1")
