"""Severity levels shared by the paging tools."""

from enum import Enum


class Severity(str, Enum):
    LOW = "low"
    HIGH = "high"
    CRITICAL = "critical"
