"""Day-of-travel assistant on Google ADK."""
