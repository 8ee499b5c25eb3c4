"""Discovery of dialect modules: every module in `receipt.dialects` with `NAME` and `extract`."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import receipt.dialects as _pkg

_NOT_DIALECTS = {"base", "registry"}


def dialects() -> list[ModuleType]:
    """All dialect modules, in a fixed (sorted) order so results never depend on discovery order."""
    found = []
    for info in sorted(pkgutil.iter_modules(_pkg.__path__), key=lambda i: i.name):
        if info.name in _NOT_DIALECTS or info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"receipt.dialects.{info.name}")
        if hasattr(mod, "NAME") and hasattr(mod, "extract"):
            found.append(mod)
    return found
