"""Multilingual support desk on the OpenAI Agents SDK."""
