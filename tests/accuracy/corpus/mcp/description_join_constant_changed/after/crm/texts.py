"""Texts shown to MCP clients."""

SUMMARY = "Delete a customer record."
WARNING = "Records can be restored by support."
