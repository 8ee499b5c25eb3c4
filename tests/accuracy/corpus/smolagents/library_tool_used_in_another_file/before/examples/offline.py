from smolagents import CodeAgent, InferenceClientModel, tool


@tool
def web_search(query: str) -> str:
    """Search a local snapshot of the web.

    Args:
        query: What to look for.
    """
    return ""


offline_agent = CodeAgent(
    tools=[web_search],
    model=InferenceClientModel(model_id="Qwen/Qwen2.5-Coder-32B-Instruct"),
    name="offline_agent",
)
