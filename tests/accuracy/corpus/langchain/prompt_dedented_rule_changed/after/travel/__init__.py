"""A LangChain travel agent."""
