from typing import Any

from agents import RunContextWrapper, function_tool


def make_profile_lookup(directory: dict[str, str]):
    """A lookup tool over one customer directory."""

    @function_tool(
        name_override="lookup_customer_profile",
        description_override="Look up the stored profile of a customer by internal id.",
    )
    def lookup(ctx: RunContextWrapper[Any]) -> str:
        return directory.get(ctx.context.get("user_id"), "No customer found for that id.")

    return lookup
