"""Ask the same question with a tool-calling agent and with a code agent."""

from __future__ import annotations

from smolagents import CodeAgent, InferenceClientModel, ToolCallingAgent

from weather_demo.tools import get_weather


def main() -> None:
    model = InferenceClientModel(model_id="meta-llama/Llama-3.3-70B-Instruct")

    agent = ToolCallingAgent(tools=[get_weather], model=model, verbosity_level=2)
    print("ToolCallingAgent:", agent.run("What's the weather like in Paris?"))

    agent = CodeAgent(tools=[get_weather], model=model, verbosity_level=2)
    print("CodeAgent:", agent.run("What's the weather like in Paris?"))


if __name__ == "__main__":
    main()
