"""Run the same question in two remote sandboxes."""

from __future__ import annotations

from smolagents import CodeAgent, InferenceClientModel, WebSearchTool

from research_demo.tools import leopard_speed_kmh

QUESTION = "How many seconds would a leopard at full speed need to cross the Pont des Arts?"


def main() -> None:
    model = InferenceClientModel(model_id="Qwen/Qwen2.5-Coder-32B-Instruct")

    agent = CodeAgent(tools=[WebSearchTool(), leopard_speed_kmh], model=model, executor_type="docker")
    print("Docker executor result:", agent.run(QUESTION))
    agent.cleanup()

    agent = CodeAgent(tools=[WebSearchTool()], model=model, executor_type="e2b")
    print("E2B executor result:", agent.run(QUESTION))
    agent.cleanup()


if __name__ == "__main__":
    main()
