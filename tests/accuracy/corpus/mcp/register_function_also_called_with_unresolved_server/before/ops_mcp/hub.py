"""Servers the platform team shares between processes, looked up by name."""

SHARED: dict = {}


def server_for(team: str):
    return SHARED[team]
