"""Notes service exposed over MCP."""
