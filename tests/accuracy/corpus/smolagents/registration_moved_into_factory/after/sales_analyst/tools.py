"""Tools for the sales analyst agents."""

from __future__ import annotations

import sqlite3

from smolagents import Tool, tool

_DB = sqlite3.connect("sales.db", check_same_thread=False)


@tool
def get_sales(region: str, quarter: str) -> float:
    """Total booked sales for a region and quarter.

    Args:
        region: Sales region code, for example "EMEA".
        quarter: Quarter such as "2025Q1".
    """
    row = _DB.execute("SELECT SUM(amount) FROM sales WHERE region = ? AND quarter = ?", (region, quarter)).fetchone()
    return float(row[0] or 0.0)


class SQLQueryTool(Tool):
    name = "run_sql"
    description = "Run a read-only SQL query against the sales warehouse and return the rows as text."
    inputs = {"query": {"type": "string", "description": "A SELECT statement in SQLite dialect."}}
    output_type = "string"

    def forward(self, query: str) -> str:
        return "\n".join(str(r) for r in _DB.execute(query).fetchall())
