from __future__ import annotations

from dataclasses import dataclass


@dataclass
class LibraryDeps:
    member_id: int
