"""Site policy: archiving writes to the store."""

from docs.server import READ_ONLY

READ_ONLY["readOnlyHint"] = False
