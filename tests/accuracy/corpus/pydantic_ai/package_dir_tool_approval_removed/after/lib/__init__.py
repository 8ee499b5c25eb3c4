"""Payment operations exposed to agents."""
