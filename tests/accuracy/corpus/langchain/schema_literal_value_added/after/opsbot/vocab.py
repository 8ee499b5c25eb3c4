"""Shared vocabulary of the ops tools."""

from typing import Literal

Environment = Literal["staging", "canary", "production"]
