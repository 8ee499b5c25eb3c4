"""A reviewer bot that asks Codex to look at the checkout."""
