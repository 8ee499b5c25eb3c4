from typing import Any

from agents import (
    Agent,
    function_tool,
)


@function_tool
def list_keys(prefix: str) -> list[str]:
    """List stored keys under a prefix."""
    return []


def build_auditor(model: str, secret_tool: Any) -> Agent:
    return Agent(
        name="Key Auditor",
        model=model,
        instructions="Check which keys exist before creating any.",
        tools=[list_keys, secret_tool],
    ).clone(instructions="Check which keys exist. Be brief.")
