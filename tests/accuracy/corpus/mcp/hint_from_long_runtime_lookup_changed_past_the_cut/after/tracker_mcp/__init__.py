"""MCP server exposing the team's issue tracker to coding assistants."""
