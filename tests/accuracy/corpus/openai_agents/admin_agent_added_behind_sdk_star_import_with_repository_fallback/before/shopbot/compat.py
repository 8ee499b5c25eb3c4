"""Stand-ins for the agents SDK, so the unit tests run where it is not installed."""


def function_tool(fn=None, **options):
    return fn if fn is not None else (lambda f: f)


class Agent:
    def __init__(self, name, instructions="", tools=(), **options):
        self.name = name
        self.instructions = instructions
        self.tools = list(tools)
