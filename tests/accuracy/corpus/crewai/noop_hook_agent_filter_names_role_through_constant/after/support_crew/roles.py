"""Agent roles, shared by the crew and the hooks that single agents out."""

TRIAGER = "Support Triager"
REFUNDS_SPECIALIST = "Refunds Specialist"
