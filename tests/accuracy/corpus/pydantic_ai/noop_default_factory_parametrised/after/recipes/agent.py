"""The recipe assistant."""

from __future__ import annotations

from pydantic_ai import Agent

from recipes.models import Pantry, Recipe

agent = Agent("openai:gpt-4o", name="recipe_assistant", instructions="Help the user cook with what they have.")


@agent.tool_plain
def save_recipe(recipe: Recipe) -> str:
    """Save a recipe to the user's cookbook."""
    return f"saved {recipe.title} ({len(recipe.ingredients)} ingredients)"


@agent.tool_plain
def check_pantry(pantry: Pantry, ingredient: str) -> int:
    """How much of an ingredient the pantry holds."""
    return pantry.stock.get(ingredient, 0)
