"""Helpdesk agents: customer support and internal IT."""
