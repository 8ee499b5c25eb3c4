from smolagents import CodeAgent, InferenceClientModel

ui_agent = CodeAgent(
    tools=[],
    model=InferenceClientModel(model_id="Qwen/Qwen2.5-Coder-32B-Instruct"),
    name="ui_agent",
)
