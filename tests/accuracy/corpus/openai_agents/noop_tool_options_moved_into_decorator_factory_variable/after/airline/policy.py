"""Who has to sign off on what: the tool decorators the airline's tools are declared with."""

from __future__ import annotations

from agents import function_tool

# Tools that move money or cancel trips wait for a staff member.
staff_approved = function_tool(needs_approval=True)
