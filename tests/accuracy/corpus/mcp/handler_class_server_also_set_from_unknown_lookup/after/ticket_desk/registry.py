"""Servers shared across the process, looked up by name."""

SERVERS: dict = {}


def shared_server(name: str = "default"):
    return SERVERS[name]
