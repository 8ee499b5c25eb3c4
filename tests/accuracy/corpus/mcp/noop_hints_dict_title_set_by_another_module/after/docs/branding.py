"""Display names of the document server's tools."""

from docs.server import READ_ONLY

READ_ONLY["title"] = "Document archive"
