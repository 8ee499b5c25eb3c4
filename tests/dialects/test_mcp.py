"""MCP Python SDK dialect: FastMCP, v2 MCPServer, low-level Server, annotations with spec defaults."""

from __future__ import annotations

from typing import Any

import pytest

from receipt.models import Dynamic, Entry
from tests.helpers import exported, link_files, surface_of

HINT_ATTRS = ("read_only", "dangerous", "idempotent", "open_world", "approval", "trust_tier")


def hints(entry: Entry) -> dict[str, Any]:
    return {a: getattr(entry, a) for a in HINT_ATTRS}


def comparable(entries: dict[str, Entry]) -> dict[str, dict[str, Any]]:
    """Everything a receipt compares (the location of a definition is not an attribute)."""
    return {k: e.model_dump(exclude={"path", "line", "defaults", "home", "slot"}) for k, e in entries.items()}  # defaults: display only


def one_tool(annotations: str, imports: str = "from mcp.types import ToolAnnotations") -> Entry:
    src = f"""
        import os
        from mcp.server.fastmcp import FastMCP
        {imports}
        mcp = FastMCP("shop")

        @mcp.tool(annotations={annotations})
        def refund(order_id: str) -> str:
            return order_id
        """
    return surface_of({"app/server.py": src})["tool:shop/refund"]


SERVER = """
    from mcp.server.fastmcp import FastMCP, Context

    mcp = FastMCP("shop")

    @mcp.tool()
    async def refund(order_id: str, amount: float = 0.0, ctx: Context = None) -> str:
        '''Refund an order.'''
        return order_id

    @mcp.prompt()
    def apology(customer: str) -> str:
        '''Write an apology.'''
        return customer
"""


def test_fastmcp_tool_is_an_exported_root_with_spec_defaults() -> None:
    entries = exported({"app/server.py": SERVER})
    tool = entries["tool:shop/refund"]
    assert tool.dialect == "mcp" and tool.scope == "shop" and tool.root and not tool.conditional
    # MCP spec defaults: not read-only, destructive, not idempotent, open world; no approval concept.
    assert hints(tool) == {"read_only": False, "dangerous": True, "idempotent": False, "open_world": True,
                           "approval": "never", "trust_tier": "autonomous"}
    assert [p.name for p in tool.signature.params] == ["order_id", "amount"]  # Context is injected
    assert tool.signature.params[1].required is False and tool.signature.returns == "str"
    assert tool.path == "app/server.py" and tool.line == 7
    prompt = entries["prompt:shop/apology"]
    assert prompt.kind == "prompt" and prompt.root and prompt.dialect == "mcp"
    assert prompt.description_sha256 and prompt.description_sha256 != tool.description_sha256


def test_explicit_name_description_and_positional_name() -> None:
    src = """
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP(name="shop")

        @mcp.tool(name="refund_order", description="Refunds.")
        def refund(order_id: str) -> str:
            '''Docstring is not what the client sees when description= is given.'''

        @mcp.tool("lookup_order")
        def lookup(order_id: str) -> str: ...
    """
    doc_only = """
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP(name="shop")

        @mcp.tool(name="refund_order")
        def refund(order_id: str) -> str:
            '''Refunds.'''
    """
    entries = surface_of({"s.py": src})
    assert set(entries) == {"tool:shop/refund_order", "tool:shop/lookup_order"}
    # The digest is of the text the client sees, wherever it was written.
    assert entries["tool:shop/refund_order"].description_sha256 == surface_of({"s.py": doc_only})["tool:shop/refund_order"].description_sha256


@pytest.mark.parametrize(
    "imports, ctor",
    [
        ("from mcp.server.fastmcp import FastMCP", "FastMCP"),
        ("from mcp.server import FastMCP", "FastMCP"),
        ("from mcp.server.fastmcp import FastMCP as F", "F"),
        ("import mcp.server.fastmcp as fm", "fm.FastMCP"),
        ("from mcp.server.mcpserver import MCPServer", "MCPServer"),
        ("from mcp.server import MCPServer", "MCPServer"),
        ("import mcp.server", "mcp.server.MCPServer"),
    ],
)
def test_every_sdk_spelling_of_the_server_class(imports: str, ctor: str) -> None:
    src = f"""
        {imports}
        from mcp.server.mcpserver import Context
        server = {ctor}("shop")

        @server.tool()
        def refund(order_id: str, ctx: Context) -> str: ...
    """
    tool = exported({"s.py": src})["tool:shop/refund"]
    assert tool.dialect == "mcp" and [p.name for p in tool.signature.params] == ["order_id"]


def test_a_local_class_named_fastmcp_is_not_a_server() -> None:
    src = """
        class FastMCP:
            def __init__(self, name): ...
            def tool(self, **kw):
                return lambda f: f

        mcp = FastMCP("shop")

        @mcp.tool()
        def refund(order_id: str) -> str: ...
    """
    assert surface_of({"s.py": src}) == {}
    other_pkg = """
        from myframework import FastMCP
        mcp = FastMCP("shop")

        @mcp.tool()
        def refund(order_id: str) -> str: ...
    """
    assert surface_of({"s.py": other_pkg}) == {}


def test_a_repository_subclass_of_fastmcp_is_a_server() -> None:
    src = """
        from mcp.server.fastmcp import FastMCP

        class ShopServer(FastMCP):
            pass

        mcp = ShopServer("shop")

        @mcp.tool()
        def refund(order_id: str) -> str: ...
    """
    assert "tool:shop/refund" in exported({"s.py": src})


def test_camel_snake_dict_constant_helper_spellings_are_one_entry() -> None:
    spellings = {
        "camel": ("ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False)", ""),
        "snake": ("ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)", ""),
        "dict": ('{"readOnlyHint": False, "destructiveHint": False, "openWorldHint": False}', ""),
        "dict-snake": ('{"read_only_hint": False, "destructive_hint": False, "open_world_hint": False}', ""),
        "dict-call": ("dict(destructiveHint=False, openWorldHint=False)", ""),
        "constant": ("SAFE", "SAFE = ToolAnnotations(destructiveHint=False, openWorldHint=False)"),
        "helper": ("safe()", "def safe():\n    return ToolAnnotations(destructiveHint=False, openWorldHint=False)"),
        "helper-arg": ("closed(False)", "def closed(d):\n    return {'destructiveHint': d, 'openWorldHint': False}"),
        "spread": ('{**BASE, "openWorldHint": False}', "BASE = {'destructiveHint': False}"),
    }
    results = {}
    for label, (expr, extra) in spellings.items():
        src = f"""
from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations
{extra}
mcp = FastMCP("shop")

@mcp.tool(annotations={expr})
def refund(order_id: str) -> str: ...
"""
        results[label] = hints(surface_of({"s.py": src})["tool:shop/refund"])
    expected = {"read_only": False, "dangerous": False, "idempotent": False, "open_world": False,
                "approval": "never", "trust_tier": "autonomous"}
    assert results == {label: expected for label in spellings}


def test_spelling_a_default_is_no_change() -> None:
    omitted = hints(one_tool("None"))
    assert hints(one_tool("ToolAnnotations()")) == omitted
    assert hints(one_tool("ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=False, openWorldHint=True)")) == omitted
    assert hints(one_tool('{"readOnlyHint": False}')) == hints(one_tool('{"destructiveHint": True}')) == omitted
    assert hints(one_tool('ToolAnnotations(title="Refund")')) == omitted


def test_destructive_only_means_something_when_not_read_only() -> None:
    read_only = one_tool("ToolAnnotations(readOnlyHint=True, destructiveHint=True)")
    assert read_only.read_only is True and read_only.dangerous is False and read_only.idempotent is True
    assert hints(read_only) == hints(one_tool('{"readOnlyHint": True}'))
    additive = one_tool('{"destructiveHint": False, "idempotentHint": True}')
    assert additive.dangerous is False and additive.idempotent is True and additive.read_only is False
    # Default-destructive: declaring only openWorldHint leaves the tool dangerous.
    assert one_tool('{"openWorldHint": False}').dangerous is True


def test_a_hint_read_at_runtime_is_dynamic_never_guessed() -> None:
    tool = one_tool('ToolAnnotations(readOnlyHint=os.environ.get("RO") == "1")')
    assert isinstance(tool.read_only, Dynamic) and "os.environ.get" in tool.read_only.dynamic
    assert isinstance(tool.dangerous, Dynamic) and isinstance(tool.idempotent, Dynamic)
    assert tool.open_world is True
    # A read-only hint that is dynamic cannot make a non-destructive tool dangerous.
    safe = one_tool('ToolAnnotations(readOnlyHint=os.environ.get("RO") == "1", destructiveHint=False)')
    assert safe.dangerous is False and isinstance(safe.read_only, Dynamic)
    whole = one_tool("load_annotations()", imports="from elsewhere import load_annotations")
    assert all(isinstance(getattr(whole, a), Dynamic) for a in ("read_only", "dangerous", "idempotent", "open_world"))


def test_add_tool_and_add_prompt_registrations() -> None:
    src = """
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.prompts import Prompt
        from mcp.types import ToolAnnotations

        def refund(order_id: str) -> str:
            '''Refund.'''

        def welcome(user: str) -> str: ...

        mcp = FastMCP("shop")
        mcp.add_tool(refund, name="refund_order", annotations=ToolAnnotations(readOnlyHint=True))
        mcp.add_prompt(Prompt.from_function(welcome, name="hello"))
    """
    entries = exported({"s.py": src})
    tool = entries["tool:shop/refund_order"]
    assert tool.read_only is True and tool.dangerous is False and tool.line == 6
    assert "prompt:shop/hello" in entries


def test_resources_are_not_part_of_the_surface() -> None:
    src = """
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("shop")

        @mcp.resource("orders://{order_id}")
        def order(order_id: str) -> str: ...
    """
    assert surface_of({"s.py": src}) == {}


def test_factory_and_if_registrations_are_conditional_roots() -> None:
    src = """
        import os
        from mcp.server.fastmcp import FastMCP

        def create_server() -> FastMCP:
            server = FastMCP("factory")

            @server.tool()
            def refund(order_id: str) -> str: ...

            return server

        mcp = FastMCP("shop")

        if os.environ.get("ADMIN"):
            @mcp.tool()
            def wipe() -> None: ...

        @mcp.tool()
        def lookup(order_id: str) -> str: ...
    """
    entries = exported({"s.py": src})
    assert entries["tool:factory/refund"].conditional and entries["tool:factory/refund"].root
    assert entries["tool:shop/wipe"].conditional and entries["tool:shop/wipe"].root
    assert not entries["tool:shop/lookup"].conditional


def test_dynamic_server_name_uses_the_variable() -> None:
    src = """
        import os
        from mcp.server.fastmcp import FastMCP
        shop_server = FastMCP(os.environ["NAME"])

        @shop_server.tool()
        def refund(order_id: str) -> str: ...
    """
    assert set(exported({"s.py": src})) == {"tool:shop_server/refund"}


SPLIT = {
    "app/__init__.py": "",
    "app/server.py": """
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("shop")
    """,
    "app/tools.py": """
        from mcp.types import ToolAnnotations
        from .server import mcp
        from .annotations import READ_ONLY

        @mcp.tool(annotations=READ_ONLY)
        def lookup(order_id: str) -> str:
            '''Look an order up.'''

        @mcp.tool()
        def refund(order_id: str) -> str:
            '''Refund an order.'''
    """,
    "app/annotations.py": """
        from mcp.types import ToolAnnotations
        READ_ONLY = ToolAnnotations(readOnlyHint=True)
    """,
}

ONE_FILE = {
    "app/__init__.py": "",
    "app/server.py": """
        from mcp.server.fastmcp import FastMCP
        from mcp.types import ToolAnnotations
        mcp = FastMCP("shop")
        READ_ONLY = ToolAnnotations(readOnlyHint=True)

        @mcp.tool(annotations=READ_ONLY)
        def lookup(order_id: str) -> str:
            '''Look an order up.'''

        @mcp.tool()
        def refund(order_id: str) -> str:
            '''Refund an order.'''
    """,
}


def test_server_imported_from_another_module() -> None:
    entries = exported(SPLIT)
    assert set(entries) == {"tool:shop/lookup", "tool:shop/refund"}
    assert entries["tool:shop/lookup"].read_only is True and entries["tool:shop/lookup"].path == "app/tools.py"


def test_a_pure_file_split_gives_the_same_surface() -> None:
    assert comparable(exported(SPLIT)) == comparable(exported(ONE_FILE))


def test_registration_function_receiving_the_server() -> None:
    src_server = """
        from mcp.server.fastmcp import FastMCP
        from app.tools import register

        mcp = FastMCP("shop")
        register(mcp)
    """
    src_tools = """
        from mcp.server.fastmcp import FastMCP

        def register(server: FastMCP) -> None:
            @server.tool()
            def refund(order_id: str) -> str: ...

            def lookup(order_id: str) -> str: ...
            server.add_tool(lookup, name="lookup_order")
    """
    entries = exported({"app/__init__.py": "", "app/server.py": src_server, "app/tools.py": src_tools})
    assert set(entries) == {"tool:shop/refund", "tool:shop/lookup_order"}
    assert not entries["tool:shop/refund"].conditional  # register(mcp) runs unconditionally at import


def test_registration_function_without_a_known_caller_is_reported() -> None:
    src = """
        from mcp.server.fastmcp import FastMCP

        def register(server: FastMCP) -> None:
            @server.tool()
            def refund(order_id: str) -> str: ...
    """
    entries, issues = link_files({"s.py": src})
    assert entries == []
    assert any("parameter 'server'" in i.message for i in issues)


def test_unresolvable_arguments_are_reported_not_dropped() -> None:
    src = """
        from mcp.server.fastmcp import FastMCP
        from config import TOOL_OPTIONS
        mcp = FastMCP("shop")

        @mcp.tool(**TOOL_OPTIONS)
        def refund(order_id: str) -> str: ...
    """
    entries, issues = link_files({"s.py": src})
    tool = {e.key: e for e in entries}["tool:shop/refund"]
    assert tool.exported and isinstance(tool.dangerous, Dynamic)
    assert any("not statically known" in i.message and i.path == "s.py" for i in issues)



def test_a_tool_registered_by_keyword_from_a_loop_item_names_the_callable_it_cannot_follow() -> None:
    # dbt-mcp: `server.add_tool(fn=definition.fn, ...)` over definitions handed in by callers; the
    # note named the callable "?".
    src = """
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("dbt")

        def register_tools(server: FastMCP, definitions) -> None:
            for definition in definitions:
                server.add_tool(fn=definition.fn, name=definition.name)

        register_tools(mcp, load_definitions())
    """
    entries, issues = link_files({"s.py": src})
    assert entries == []
    said = [i.message for i in issues if "cannot be resolved statically" in i.message]
    assert said and said[0].endswith("definition.fn"), said

LOWLEVEL = """
    from enum import Enum
    import mcp.types as types
    from mcp.server.lowlevel import Server

    class ToolName(str, Enum):
        REFUND = "refund_order"
        LOOKUP = "lookup_order"

    server = Server("shop-ll")

    LOOKUP_TOOL = types.Tool(
        name=ToolName.LOOKUP.value,
        description="Look an order up.",
        inputSchema={"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
        annotations=types.ToolAnnotations(readOnlyHint=True),
    )

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [
            types.Tool(
                name=ToolName.REFUND,
                description="Refund an order.",
                inputSchema={
                    "type": "object",
                    "properties": {"order_id": {"type": "string"}, "amount": {"type": "number"}},
                    "required": ["order_id"],
                },
            ),
            LOOKUP_TOOL,
        ]

    @server.list_prompts()
    async def list_prompts() -> list[types.Prompt]:
        return [types.Prompt(name="apology", arguments=[types.PromptArgument(name="customer", required=True)])]

    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list: ...
"""


def test_lowlevel_server_tools_are_the_listed_tool_items() -> None:
    entries = exported({"ll/server.py": LOWLEVEL})
    assert set(entries) == {"tool:shop-ll/refund_order", "tool:shop-ll/lookup_order", "prompt:shop-ll/apology"}
    refund = entries["tool:shop-ll/refund_order"]
    assert refund.dangerous is True and refund.read_only is False and refund.root
    assert [(p.name, p.type, p.required) for p in refund.signature.params] == [("order_id", "string", True), ("amount", "number", False)]
    lookup = entries["tool:shop-ll/lookup_order"]
    assert lookup.read_only is True and lookup.dangerous is False
    assert [p.name for p in entries["prompt:shop-ll/apology"].signature.params] == ["customer"]


def test_lowlevel_tools_follow_module_lists_and_appends() -> None:
    src = """
        import os
        from mcp import types
        from mcp.server import Server

        server = Server("shop-ll")
        TOOLS = [types.Tool(name="lookup", inputSchema={}, annotations={"readOnlyHint": True})]
        if os.environ.get("ADMIN"):
            TOOLS.append(types.Tool(name="wipe", inputSchema={}))

        @server.list_tools()
        async def list_tools():
            return TOOLS
    """
    entries = exported({"s.py": src})
    assert set(entries) == {"tool:shop-ll/lookup", "tool:shop-ll/wipe"}
    assert entries["tool:shop-ll/wipe"].conditional and not entries["tool:shop-ll/lookup"].conditional
    assert entries["tool:shop-ll/lookup"].read_only is True


def test_lowlevel_v2_handler_keyword_and_list_result() -> None:
    src = """
        from mcp import types
        from mcp.server import Server

        async def handle_list_tools(ctx, params) -> types.ListToolsResult:
            return types.ListToolsResult(tools=[
                types.Tool(name="refund", input_schema={"type": "object"},
                           annotations=types.ToolAnnotations(destructive_hint=False)),
            ])

        server = Server("shop-v2", on_list_tools=handle_list_tools)
    """
    tool = exported({"s.py": src})["tool:shop-v2/refund"]
    assert tool.dangerous is False and tool.signature.params == []


def test_lowlevel_dynamic_list_is_reported() -> None:
    src = """
        from mcp import types
        from mcp.server.lowlevel import Server
        from registry import load_tools

        server = Server("shop-ll")

        @server.list_tools()
        async def list_tools():
            return [types.Tool(name=t.name, inputSchema={}) for t in load_tools()]
    """
    entries, issues = link_files({"s.py": src})
    assert entries == []
    assert len(issues) == 1 and "not statically known" in issues[0].message and issues[0].path == "s.py"


def test_fastmcp_package_servers_are_not_the_sdk_dialect() -> None:
    src = """
        from fastmcp import FastMCP
        mcp = FastMCP("shop")

        @mcp.tool
        def refund(order_id: str) -> str: ...
    """
    assert exported({"s.py": src})["tool:shop/refund"].dialect == "fastmcp"


def test_marker_overlays_approval_on_an_mcp_tool() -> None:
    src = """
        from mcp.server.fastmcp import FastMCP
        from receipt.markers import tool
        mcp = FastMCP("shop")

        @tool(approval="always")
        @mcp.tool()
        def refund(order_id: str) -> str: ...
    """
    entry = exported({"s.py": src})["tool:shop/refund"]
    assert entry.approval == "always" and entry.trust_tier == "human_required" and entry.dialect == "mcp"


def test_lowlevel_tools_built_by_a_helper_and_handler_locals() -> None:
    src = """
        from mcp import types
        from mcp.server.lowlevel import Server

        def _tool(name: str, description: str, read_only: bool = False) -> types.Tool:
            return types.Tool(name=name, description=description, inputSchema={"type": "object"},
                              annotations=types.ToolAnnotations(readOnlyHint=read_only))

        server = Server("shop-ll")

        @server.list_tools()
        async def list_tools():
            tools = [_tool("lookup", "Look up.", read_only=True)]
            tools.append(_tool("refund", "Refund."))
            return tools
    """
    entries = exported({"s.py": src})
    assert entries["tool:shop-ll/lookup"].read_only is True and entries["tool:shop-ll/lookup"].dangerous is False
    assert entries["tool:shop-ll/refund"].dangerous is True


def test_defaults_say_which_attributes_are_mcp_protocol_defaults() -> None:
    s = exported({"s.py": """
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("ops")

        @mcp.tool()
        def wipe(path: str) -> str: ...

        @mcp.tool(annotations={"readOnlyHint": True})
        def look(path: str) -> str: ...

        @mcp.tool(annotations={"destructiveHint": False, "openWorldHint": False})
        def touch(path: str) -> str: ...
    """})
    every = {"dangerous", "idempotent", "open_world", "read_only"}
    assert s["tool:ops/wipe"].dangerous is True
    assert s["tool:ops/wipe"].defaults == {a: "mcp:no-annotations" for a in every}
    # read-only decides destructive and idempotent: only open-world is a default
    assert s["tool:ops/look"].defaults == {"open_world": "mcp:not-declared"}
    assert s["tool:ops/touch"].defaults == {"idempotent": "mcp:not-declared", "read_only": "mcp:not-declared"}


def test_only_mcp_tools_default_to_open_world() -> None:
    s = exported({
        "m.py": "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('calc')\n\n@mcp.tool()\ndef add(a: int, b: int) -> int: ...\n",
        "lc.py": "from langchain_core.tools import tool\nfrom langgraph.prebuilt import create_react_agent\n\n"
                 "@tool\ndef multiply(a: int, b: int) -> int:\n    '''Multiply.'''\n    return a * b\n\n"
                 "graph = create_react_agent('openai:gpt-5', tools=[multiply])\n",
    })
    assert s["tool:calc/add"].open_world is True  # the MCP protocol default (openWorldHint)
    assert s["tool:multiply"].open_world is False and s["tool:multiply"].defaults == {}


AUDITED = """
    import functools

    def audited(mcp, name, **tool_kwargs):
        def decorator(func):
            @functools.wraps(func)
            async def wrapper(*args, **kwargs):
                return await func(*args, **kwargs)

            mcp.tool(name=name, **tool_kwargs)(wrapper)
            return wrapper

        return decorator
"""


def test_a_decorator_factory_registers_each_function_it_is_applied_to_by_call_or_by_decorator() -> None:
    tools = """
        from mcp.server.fastmcp import FastMCP
        from mcp.types import ToolAnnotations
        from app.audit import audited

        mcp = FastMCP("ops")

        async def status(job: str) -> str:
            '''Job status.'''
            return job

        audited(mcp, "job_status", annotations=ToolAnnotations(readOnlyHint=True))(status)

        @audited(mcp, "purge", title="Purge")
        async def purge(job: str, force: bool = False) -> str:
            '''Purge a job.'''
            return job
        """
    found = exported({"app/__init__.py": "", "app/audit.py": AUDITED, "app/server.py": tools})
    assert sorted(found) == ["tool:ops/job_status", "tool:ops/purge"]
    assert (found["tool:ops/job_status"].read_only, found["tool:ops/purge"].dangerous) == (True, True)
    assert [p.name for p in found["tool:ops/purge"].signature.params] == ["job", "force"]


def test_a_decorator_factory_nobody_applies_is_still_read_as_a_registration() -> None:
    # Fail closed: with no application to read, the helper's own registration stays (its name dynamic).
    found = exported({"app/__init__.py": "", "app/audit.py": AUDITED,
                      "app/server.py": "from mcp.server.fastmcp import FastMCP\nfrom app.audit import audited\nmcp = FastMCP('ops')\naudited(mcp, 'x')\n"})
    assert [e.name for e in found.values()] == ["wrapper"]


def test_a_server_kept_on_the_instance_is_the_one_the_constructor_is_given() -> None:
    handler = """
        from mcp.server.fastmcp import FastMCP

        class Handler:
            def __init__(self, mcp: FastMCP) -> None:
                self.mcp = mcp
                self.mcp.tool(name="list_items")(self.list_items)

            def list_items(self, prefix: str) -> list[str]:
                return [prefix]
        """
    server = "from mcp.server.fastmcp import FastMCP\nfrom app.handler import Handler\nmcp = FastMCP('shop')\nHandler(mcp)\n"
    found = exported({"app/__init__.py": "", "app/handler.py": handler, "app/server.py": server})
    assert list(found) == ["tool:shop/list_items"]
    assert [p.name for p in found["tool:shop/list_items"].signature.params] == ["prefix"]
    assert not found["tool:shop/list_items"].conditional  # the constructor runs at import
