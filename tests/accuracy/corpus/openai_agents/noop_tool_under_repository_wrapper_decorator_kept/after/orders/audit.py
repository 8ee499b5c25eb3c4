"""Our own wrapper around the SDK's function_tool: every call of a tool is logged."""

import functools
import logging

from agents import function_tool

log = logging.getLogger(__name__)


def audited_tool(fn):
    @functools.wraps(fn)
    def logged(*args, **kwargs):
        log.info("tool %s called", fn.__name__)
        return fn(*args, **kwargs)

    return function_tool(logged)
