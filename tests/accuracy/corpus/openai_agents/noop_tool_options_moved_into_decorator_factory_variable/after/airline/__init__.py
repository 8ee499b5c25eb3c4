"""Airline customer-service agents (modelled on the openai-agents customer_service example)."""
