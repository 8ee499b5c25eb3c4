"""The same question, answered in each remote sandbox in turn."""

from __future__ import annotations

from smolagents import CodeAgent, InferenceClientModel, WebSearchTool

from sandbox_demo.tools import bridge_length_m

QUESTION = "How many seconds would a leopard at full speed need to cross the Pont des Arts?"

model = InferenceClientModel(model_id="Qwen/Qwen2.5-Coder-32B-Instruct")

# Docker executor
with CodeAgent(tools=[WebSearchTool(), bridge_length_m], model=model, executor_type="docker") as agent:
    print("Docker executor result:", agent.run(QUESTION))

# E2B executor
with CodeAgent(tools=[WebSearchTool()], model=model, executor_type="e2b") as agent:
    print("E2B executor result:", agent.run(QUESTION))

# WebAssembly executor: no tools yet
with CodeAgent(tools=[], model=model, executor_type="wasm") as agent:
    print("Wasm executor result:", agent.run("Calculate the square root of 125."))
