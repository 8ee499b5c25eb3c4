"""MCP server over the regional object cache."""
