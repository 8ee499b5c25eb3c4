from agents import Agent, function_tool


@function_tool
def lookup(hostname: str) -> str:
    """Find an inventory record for a machine."""
    return f"host {hostname}"


@function_tool(needs_approval=True)
def reimage(hostname: str) -> str:
    """Wipe and reinstall a machine."""
    return "queued"


it_desk = Agent(name="it_desk", instructions="Help staff with their machines.", tools=[lookup, reimage])
