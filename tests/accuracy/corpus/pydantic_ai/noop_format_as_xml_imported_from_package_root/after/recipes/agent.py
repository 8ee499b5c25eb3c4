"""A cooking assistant that suggests substitutions for missing ingredients."""

from __future__ import annotations

from pydantic import BaseModel
from pydantic_ai import Agent, RunContext, format_as_xml

from recipes.examples import SUBSTITUTIONS


class Pantry(BaseModel):
    ingredients: list[str]


cook = Agent("openai:gpt-4o", deps_type=Pantry, name="cook")


@cook.system_prompt
def with_examples(ctx: RunContext[Pantry]) -> str:
    return f"""\
Suggest a substitution for each missing ingredient, using only what the pantry holds.

Examples:
{format_as_xml(SUBSTITUTIONS)}

Pantry:
{format_as_xml(ctx.deps.ingredients, root_tag="pantry")}
"""


@cook.tool_plain
def convert_units(grams: float) -> str:
    """Convert grams of flour to cups."""
    return f"{grams / 120:.2f} cups"
