"""Worked examples shown to the model with every request."""

from __future__ import annotations

SUBSTITUTIONS = [
    {"missing": "buttermilk", "use": "milk with a spoon of lemon juice"},
    {"missing": "self-raising flour", "use": "plain flour with baking powder"},
]
