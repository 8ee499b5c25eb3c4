"""The weather agent, on the inference back end chosen below."""

from __future__ import annotations

from smolagents import CodeAgent, InferenceClientModel, LiteLLMModel, OpenAIServerModel

from weather_cli.tools import get_weather

# Choose which inference back end to use.
available_inferences = ["inference_client", "ollama", "openai"]
chosen_inference = "inference_client"

if chosen_inference == "inference_client":
    model = InferenceClientModel(model_id="meta-llama/Llama-3.3-70B-Instruct", provider="nebius")
elif chosen_inference == "ollama":
    model = LiteLLMModel(model_id="ollama_chat/llama3.2", api_base="http://localhost:11434", num_ctx=8192)
elif chosen_inference == "openai":
    model = OpenAIServerModel(model_id="gpt-4o")

weather_agent = CodeAgent(tools=[get_weather], model=model, name="weather", verbosity_level=2)
