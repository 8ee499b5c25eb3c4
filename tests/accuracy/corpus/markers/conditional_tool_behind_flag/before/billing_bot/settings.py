"""Deployment switches, read once at import."""

import os

WRITE_OFFS_ENABLED = os.environ.get("BILLING_WRITE_OFFS") == "1"
