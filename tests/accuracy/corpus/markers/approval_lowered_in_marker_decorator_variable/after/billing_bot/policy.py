"""The markers the billing tools are declared with: one place to read what needs a human."""

from __future__ import annotations

from receipt.markers import tool

# Money leaves the company: a person confirms every call.
money_movement = tool(dangerous=True, approval="never")
