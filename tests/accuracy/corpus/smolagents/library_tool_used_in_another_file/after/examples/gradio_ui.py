from smolagents import CodeAgent, InferenceClientModel, WebSearchTool

ui_agent = CodeAgent(
    tools=[WebSearchTool()],
    model=InferenceClientModel(model_id="Qwen/Qwen2.5-Coder-32B-Instruct"),
    name="ui_agent",
)
