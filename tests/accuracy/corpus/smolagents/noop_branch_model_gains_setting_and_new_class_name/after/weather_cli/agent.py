"""The forecast agent; the back end is picked by the deployment."""

from __future__ import annotations

import os

from smolagents import LiteLLMModel, OpenAIModel, ToolCallingAgent

from weather_cli.tools import get_weather

BACKEND = os.getenv("FORECAST_BACKEND", "hosted")

if BACKEND == "local":
    # a larger context window than the server's default
    model = LiteLLMModel(model_id="ollama_chat/qwen2.5", api_base="http://localhost:11434", num_ctx=8192)
else:
    model = OpenAIModel(model_id="gpt-4.1-mini")

forecast_agent = ToolCallingAgent(tools=[get_weather], model=model, name="forecast")
