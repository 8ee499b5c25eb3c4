"""Ticket triage agent; the model is picked per deployment."""
