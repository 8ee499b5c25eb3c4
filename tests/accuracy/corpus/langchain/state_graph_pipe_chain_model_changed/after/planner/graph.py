from typing import TypedDict

from langchain_core.output_parsers import StrOutputParser
from langgraph.graph import END, START, StateGraph

from planner.chains import drafting_llm, itinerary_prompt, stops_chain


class TripState(TypedDict):
    request: str
    stops: list[str]
    itinerary: str


async def choose_stops(state: TripState) -> dict:
    result = await stops_chain.ainvoke({"request": state["request"]})
    return {"stops": result.stops}


async def write_itinerary(state: TripState) -> dict:
    chain = itinerary_prompt | drafting_llm | StrOutputParser()
    return {"itinerary": await chain.ainvoke({"stops": ", ".join(state["stops"])})}


builder = StateGraph(TripState)
builder.add_node("choose_stops", choose_stops)
builder.add_node("write_itinerary", write_itinerary)
builder.add_edge(START, "choose_stops")
builder.add_edge("choose_stops", "write_itinerary")
builder.add_edge("write_itinerary", END)
trip_planner = builder.compile()
