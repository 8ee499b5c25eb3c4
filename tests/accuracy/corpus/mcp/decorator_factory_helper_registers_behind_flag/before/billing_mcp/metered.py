"""Decorator factory: registers a tool on the given server and counts its calls."""

import functools
from collections import Counter

CALLS: Counter = Counter()


def metered(server, tool_name, **options):
    """Register the decorated function on `server` as `tool_name`, counting each call."""

    def wrap(func):
        @functools.wraps(func)
        def counted(*args, **kwargs):
            CALLS[tool_name] += 1
            return func(*args, **kwargs)

        server.tool(name=tool_name, **options)(counted)
        return counted

    return wrap
