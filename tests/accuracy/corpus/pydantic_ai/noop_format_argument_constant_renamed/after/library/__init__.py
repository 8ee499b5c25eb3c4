"""A library assistant built with PydanticAI."""
