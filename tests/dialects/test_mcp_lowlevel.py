"""Low-level MCP servers whose list handlers are registered by applying the decorator by hand:
`server.list_tools()(handler)`, at module level or in a class's `__init__` on its own methods."""

from __future__ import annotations

from tests.helpers import exported, link_files

TOOLS = '[Tool(name="execute_sql", description="Run SQL.", inputSchema={"type": "object", "properties": {"query": {"type": "string"}}})]'


def test_a_list_handler_applied_by_hand_lists_its_tools_as_the_decorated_one() -> None:
    decorated = f"""
from mcp.server import Server
from mcp.types import Tool

app = Server("db")

@app.list_tools()
async def list_tools() -> list[Tool]:
    return {TOOLS}
"""
    applied = f"""
from mcp.server import Server
from mcp.types import Tool

app = Server("db")

async def list_tools() -> list[Tool]:
    return {TOOLS}

app.list_tools()(list_tools)
"""
    a, b = exported({"server.py": decorated}), exported({"server.py": applied})
    assert set(a) == set(b) == {"tool:db/execute_sql"}
    assert a["tool:db/execute_sql"].description_sha256 == b["tool:db/execute_sql"].description_sha256
    assert not b["tool:db/execute_sql"].conditional


def test_a_class_registering_its_own_method_in_init_lists_its_tools() -> None:
    src = f"""
from mcp.server import Server
from mcp.types import Tool

class DatabaseServer:
    def __init__(self) -> None:
        self.app = Server("db")
        self.app.list_tools()(self.list_tools)

    async def list_tools(self) -> list[Tool]:
        return {TOOLS}
"""
    entries = exported({"server.py": src})
    assert set(entries) == {"tool:db/execute_sql"}
    assert entries["tool:db/execute_sql"].dangerous is True  # no annotations: the protocol's default


def test_a_handler_that_cannot_be_followed_is_noted_not_dropped() -> None:
    src = """
import functools
from mcp.server import Server

app = Server("db")

async def list_for(kind):
    return []

app.list_tools()(functools.partial(list_for, "sql"))
"""
    entries, issues = link_files({"server.py": src})
    assert not [e for e in entries if e.kind == "tool"]
    assert [i.message for i in issues if "list_tools handler of MCP server 'db' is not statically known" in i.message]
