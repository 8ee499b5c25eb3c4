"""Deployment settings, read once from the environment."""

import os

MODE = os.environ.get("CACHE_MCP_MODE", "read")
