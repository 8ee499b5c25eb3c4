"""Decorator factory: registers a tool on the given server and counts its calls."""

import functools
import os
from collections import Counter

CALLS: Counter = Counter()


def metered(server, tool_name, **options):
    """Register the decorated function on `server` as `tool_name`, counting each call."""

    def wrap(func):
        @functools.wraps(func)
        def counted(*args, **kwargs):
            CALLS[tool_name] += 1
            return func(*args, **kwargs)

        if os.getenv("BILLING_TOOLS_ENABLED", "true") == "true":
            server.tool(name=tool_name, **options)(counted)
        return counted

    return wrap
