from collections.abc import Callable
from typing import Any


def serve(factory: Callable[[], Any], argv: list[str]) -> None:
    """Build the server and run it on stdio (the transport flags are parsed elsewhere)."""
    import anyio

    server = factory()
    anyio.run(server.run_stdio)
