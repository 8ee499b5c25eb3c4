"""What the recipe assistant's tools take."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from pydantic import BaseModel, Field


class SkillLevel(str, Enum):
    BEGINNER = "Beginner"
    ADVANCED = "Advanced"


class Ingredient(BaseModel):
    name: str
    quantity: str


class Recipe(BaseModel):
    title: str
    skill_level: SkillLevel = SkillLevel.BEGINNER
    ingredients: list[Ingredient] = Field(default_factory=list[Ingredient], description="What goes in, in order")
    instructions: list[str] = Field(default_factory=list[str], description="The steps of the recipe")


@dataclass
class Pantry:
    owner: str
    stock: dict[str, int] = field(default_factory=dict[str, int])
