"""behavior-receipt: signed, deterministic receipts of what a pull request changes in an agent surface."""

__version__ = "0.1.0"

# Where a repository keeps the keys it trusts (read from the base revision). Here rather than in
# receipt.keys so that the CLI can name it in --help without loading cryptography.
DEFAULT_KEYRING_PATH = ".github/receipt-keys.json"
