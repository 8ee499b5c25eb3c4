"""Site policy for the file server's tool hints."""

from files_server.server import READ_HINTS

READ_HINTS["readOnlyHint"] = True
