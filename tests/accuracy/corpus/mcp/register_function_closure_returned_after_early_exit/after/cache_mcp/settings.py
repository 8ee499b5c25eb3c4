"""Deployment settings, read once from the environment."""

import os

ALLOW_PURGE = os.environ.get("CACHE_MCP_ALLOW_PURGE", "") == "1"
