from langgraph.prebuilt import create_react_agent
from langgraph_swarm import create_handoff_tool, create_swarm

from travel_swarm.tools import search_flights, search_hotels

to_hotels = create_handoff_tool(agent_name="hotel_assistant", description="Hand the traveller to the hotel assistant.")

flight_assistant = create_react_agent(
    "openai:gpt-4.1",
    tools=[search_flights, to_hotels],
    prompt="You book flights.",
    name="flight_assistant",
)

hotel_assistant = create_react_agent(
    "openai:gpt-4.1",
    tools=[search_hotels],
    prompt="You book hotels.",
    name="hotel_assistant",
)

app = create_swarm([flight_assistant, hotel_assistant], default_active_agent="flight_assistant").compile()
