"""Tools collect themselves here when their module is imported; the server registers them all."""

from typing import Any, Callable

_tools: list[dict[str, Any]] = []


def studio_tool(name: str | None = None, description: str | None = None, **settings: Any) -> Callable:
    def collect(fn: Callable) -> Callable:
        _tools.append({"fn": fn, "name": name or fn.__name__, "description": description, "settings": dict(settings)})
        return fn

    return collect


def collected() -> list[dict[str, Any]]:
    return _tools.copy()
