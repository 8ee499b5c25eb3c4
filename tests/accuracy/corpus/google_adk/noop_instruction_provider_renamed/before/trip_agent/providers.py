from datetime import datetime

from google.adk.agents.readonly_context import ReadonlyContext

from trip_agent import prompt


def _next_segment(itinerary: dict) -> tuple[str, str]:
    legs = itinerary.get("legs", [])
    leg = legs[0] if legs else {}
    return leg.get("from", "home"), leg.get("to", "unknown")


def logistics_instruction(readonly_context: ReadonlyContext) -> str:
    itinerary = readonly_context.state.get("itinerary")
    if not itinerary:
        return prompt.NO_ITINERARY
    now = datetime.now().isoformat(timespec="minutes")
    origin, destination = _next_segment(itinerary)
    return prompt.LOGISTICS_TEMPLATE.format(now=now, origin=origin, destination=destination)
