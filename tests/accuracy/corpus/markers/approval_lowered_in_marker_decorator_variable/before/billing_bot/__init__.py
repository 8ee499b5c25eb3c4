"""Billing assistant: answers invoice questions and issues refunds."""
