"""Prompt text of the librarian."""

LIBRARY = "Northside Public Library"
MAX_RENEWALS = 5
TEMPLATE = (
    "You are the assistant of {library}. Members may renew a loan at most {renewals} times. "
    "Never reveal another member's loans."
)
