"""Who has to sign off on what."""

from __future__ import annotations

import functools

from agents import function_tool

# Tools that move money or cancel trips wait for a staff member.
staff_approved = functools.partial(function_tool, needs_approval=False)
