"""Tools that leave an audit line for every call."""

import functools
import logging

log = logging.getLogger(__name__)


def audited(mcp, name, **tool_kwargs):
    """Register the decorated function as tool `name` on `mcp`, logging each call."""

    def decorator(func):
        @functools.wraps(func)
        async def wrapper(*args, **kwargs):
            log.info("tool %s called", name)
            return await func(*args, **kwargs)

        mcp.tool(name=name, **tool_kwargs)(wrapper)
        return wrapper

    return decorator
