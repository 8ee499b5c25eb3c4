import os

from smolagents import CodeAgent, InferenceClientModel, tool


@tool
def add(a: int, b: int) -> int:
    """Add two numbers.

    Args:
        a: first number
        b: second number
    """
    return a + b


agent = CodeAgent(tools=[add], model=InferenceClientModel(), name=os.environ.get("CALC_AGENT", "calculator"))
