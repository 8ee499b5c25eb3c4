from agents import Agent, function_tool


@function_tool
def lookup(ticket_id: str) -> str:
    """Find a customer ticket by id."""
    return f"ticket {ticket_id}"


@function_tool(needs_approval=True)
def close_ticket(ticket_id: str, note: str) -> str:
    """Close a customer ticket with a closing note."""
    return "closed"


support = Agent(
    name="support",
    instructions="Answer customer tickets. Close them only when the customer confirms.",
    tools=[lookup, close_ticket],
)
