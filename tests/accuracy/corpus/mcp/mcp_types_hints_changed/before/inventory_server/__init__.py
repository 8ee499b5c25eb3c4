"""Inventory MCP server (SDK v2)."""
