from __future__ import annotations

from smolagents import Tool

from sales_analyst.tools import _DB


class SQLQueryTool(Tool):
    name = "run_sql"
    description = "Run a read-only SQL query against the sales warehouse and return the rows as text."
    inputs = {"query": {"type": "string", "description": "A SELECT statement in SQLite dialect."}}
    output_type = "string"

    def forward(self, query: str) -> str:
        return "\n".join(str(r) for r in _DB.execute(query).fetchall())
