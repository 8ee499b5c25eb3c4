from smolagents import CodeAgent, InferenceClientModel, WebSearchTool

search_agent = CodeAgent(
    tools=[WebSearchTool()],
    model=InferenceClientModel(model_id="Qwen/Qwen2.5-Coder-32B-Instruct"),
    name="search_agent",
)
