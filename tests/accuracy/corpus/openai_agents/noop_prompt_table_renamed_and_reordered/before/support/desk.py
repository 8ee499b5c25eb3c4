import os

from agents import Agent

from support.prompts import INSTRUCTIONS
from support.tools import invoice_total

LANGUAGE = os.environ.get("SUPPORT_LANGUAGE", "en")

billing_agent = Agent(
    name="Billing",
    instructions=INSTRUCTIONS[LANGUAGE],
    tools=[invoice_total],
    model="gpt-4.1",
)
