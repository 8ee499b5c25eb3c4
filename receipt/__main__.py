"""`python -m receipt ...` is `receipt ...`."""

from receipt.cli import main

if __name__ == "__main__":
    main()
