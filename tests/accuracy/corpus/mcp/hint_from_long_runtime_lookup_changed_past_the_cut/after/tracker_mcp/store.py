"""SQLite-backed issue store (a stand-in for the tracker's REST API)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass


@dataclass
class Issue:
    id: int
    title: str
    body: str
    state: str = "open"


class IssueStore:
    def __init__(self, path: str = "tracker.db") -> None:
        self._db = sqlite3.connect(path)

    def search(self, query: str, limit: int) -> list[Issue]:
        rows = self._db.execute("SELECT id, title, body, state FROM issues WHERE title LIKE ? LIMIT ?", (f"%{query}%", limit))
        return [Issue(*r) for r in rows]

    def create(self, title: str, body: str) -> Issue:
        cur = self._db.execute("INSERT INTO issues (title, body) VALUES (?, ?)", (title, body))
        return Issue(cur.lastrowid, title, body)

    def delete(self, issue_id: int) -> None:
        self._db.execute("DELETE FROM issues WHERE id = ?", (issue_id,))


store = IssueStore()
