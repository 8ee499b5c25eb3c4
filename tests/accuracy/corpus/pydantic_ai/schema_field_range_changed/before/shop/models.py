"""Inputs of the catalogue agent's tools."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ProductQuery(BaseModel):
    text: str = Field(description="Free-text search over names and descriptions.")
    max_results: int = Field(default=10, ge=1, le=50)
    in_stock_only: bool = False
