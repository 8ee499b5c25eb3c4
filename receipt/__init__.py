"""behavior-receipt: signed, deterministic receipts of what a pull request changes in an agent surface."""

__version__ = "0.1.0"
