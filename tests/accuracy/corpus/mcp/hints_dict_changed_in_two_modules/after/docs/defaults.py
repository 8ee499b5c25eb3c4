"""Site-wide defaults for the document server's tool hints."""

from docs.server import READ_ONLY

READ_ONLY["readOnlyHint"] = True
