import os


def check_enabled() -> None:
    if os.environ.get("SUPPORT_REFUNDS") != "1":
        raise ImportError("refunds are not enabled")
