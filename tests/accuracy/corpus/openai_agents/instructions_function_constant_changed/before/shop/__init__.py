"""A shop assistant built on the OpenAI Agents SDK."""
