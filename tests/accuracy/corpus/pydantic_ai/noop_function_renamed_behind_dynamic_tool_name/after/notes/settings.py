import os

SEARCH_TOOL = os.environ.get("SEARCH_TOOL", "search_notes")
