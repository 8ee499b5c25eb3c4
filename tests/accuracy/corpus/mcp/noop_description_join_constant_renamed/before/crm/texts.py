"""Texts shown to MCP clients."""

SUMMARY = "Delete a customer record."
WARNING = "This cannot be undone."
