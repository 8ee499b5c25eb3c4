from agents import Agent, function_tool


@function_tool
def wipe_fixtures(path: str) -> str:
    """Delete test fixtures."""
    return path


fixture_agent = Agent(name="fixture_agent", instructions="Test helper.", tools=[wipe_fixtures])
