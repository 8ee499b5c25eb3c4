"""Texts shown to MCP clients."""

DELETE_SUMMARY = "Delete a customer record."
WARNING = "This cannot be undone."
