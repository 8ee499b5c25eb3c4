"""A low-level list handler that returns part of a tool list the module defines (a page, an item)."""

from __future__ import annotations

import pytest

from tests.helpers import link_files

TOOLS = '''
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("pages")

TOOLS = [
    types.Tool(name="read", inputSchema={"type": "object"}, annotations=types.ToolAnnotations(readOnlyHint=True)),
    types.Tool(name="write", inputSchema={"type": "object"}),
    types.Tool(name="drop", inputSchema={"type": "object"}),
]
PAGES = [TOOLS[:1], [TOOLS[2]]]


@server.list_tools()
async def list_tools(request: types.ListToolsRequest) -> types.ListToolsResult:
    cursor = request.params.cursor if request.params is not None else None
    return types.ListToolsResult(tools=RETURNED)
'''


def _listed(returned: str) -> tuple[dict[str, bool], list[str]]:
    entries, issues = link_files({"pkg/low.py": TOOLS.replace("RETURNED", returned)})
    tools = {e.name: e.conditional for e in entries if e.kind == "tool"}
    return tools, [i.message for i in issues if i.kind == "unresolved"]


@pytest.mark.parametrize(
    "returned, listed",
    [
        # bounds sent back by the client: every tool is on some page, none other can be
        ("TOOLS[int(cursor or 0):int(cursor or 0) + 2]", {"read": False, "write": False, "drop": False}),
        ("TOOLS[1:]", {"write": False, "drop": False}),
        ("TOOLS[::2]", {"read": False, "drop": False}),
        # one tool chosen at run time: any of them may be the one
        ("[TOOLS[int(cursor)]]", {"read": True, "write": True, "drop": True}),
        ("[TOOLS[-1]]", {"drop": False}),
        # a list of pages: the tools of every page
        ("PAGES[int(cursor or 0)]", {"read": False, "drop": False}),
    ],
)
def test_a_page_of_a_known_tool_list_lists_the_tools_it_can_reach(returned: str, listed: dict[str, bool]) -> None:
    assert _listed(returned) == (listed, [])


def test_a_page_of_a_list_we_cannot_read_is_still_reported() -> None:
    tools, unresolved = _listed("load_tools()[int(cursor or 0):]")
    assert tools == {} and len(unresolved) == 1 and "not statically known" in unresolved[0]
