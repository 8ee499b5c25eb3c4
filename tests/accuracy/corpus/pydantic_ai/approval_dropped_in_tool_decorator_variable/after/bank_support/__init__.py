"""Bank support agent (modelled on the PydanticAI bank support example)."""
