"""Discovery of dialect modules: every module in `receipt.dialects` with `NAME` and `extract`."""

from __future__ import annotations

import functools
import importlib
import pkgutil
from types import ModuleType
from typing import Iterable

import receipt.dialects as _pkg

_NOT_DIALECTS = {"base", "registry"}


@functools.cache
def _all() -> tuple[ModuleType, ...]:
    found = []
    for info in sorted(pkgutil.iter_modules(_pkg.__path__), key=lambda i: i.name):
        if info.name in _NOT_DIALECTS or info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"receipt.dialects.{info.name}")
        if hasattr(mod, "NAME") and hasattr(mod, "extract"):
            found.append(mod)
    return tuple(found)


def dialects() -> list[ModuleType]:
    """All dialect modules, in a fixed (sorted) order so results never depend on discovery order."""
    return list(_all())


# The framework packages a dialect reads, as top-level package name prefixes of import origins.
# Such a dialect recognises only objects whose names resolve into these packages, and names resolve
# only through imports: when no module of the program imports anything from them, it would find
# nothing, and is not run. A whole-program rule, never a per-file filter: a single import anywhere
# runs the dialect over every module (a file that imports no framework can still hold a framework's
# tools, e.g. a server passed in as a parameter). Dialects not listed always run.
FRAMEWORK_PACKAGES: dict[str, tuple[str, ...]] = {
    "crewai": ("crewai",),
    "google-adk": ("google",),
    "langchain": ("langchain", "langgraph", "deepagents"),
    "openai-agents": ("agents",),
    "pydantic-ai": ("pydantic_ai",),
    "smolagents": ("smolagents",),
}


def dialects_for(imported: Iterable[str]) -> list[ModuleType]:
    """The dialects that can find something in a program whose modules import `imported` (origins)."""
    tops = {name.split(".", 1)[0] for name in imported}
    return [
        d
        for d in dialects()
        if d.NAME not in FRAMEWORK_PACKAGES or any(top.startswith(p) for top in tops for p in FRAMEWORK_PACKAGES[d.NAME])
    ]
