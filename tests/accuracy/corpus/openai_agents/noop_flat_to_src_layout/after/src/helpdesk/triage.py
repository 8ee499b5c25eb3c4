from agents import Agent

from helpdesk.customer import support
from helpdesk.it import it_desk

triage = Agent(name="triage", instructions="Route the request to the right desk.", handoffs=[support, it_desk])
